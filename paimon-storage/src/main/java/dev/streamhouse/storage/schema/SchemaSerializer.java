package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.UnsupportedTableFeatureException;

import com.fasterxml.jackson.databind.JsonNode;
import dev.streamhouse.storage.options.BucketOptions;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.types.DataField;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Converts {@link TableSchema} to and from the JSON of {@code schema/schema-<id>} (docs/format.md §3).
 *
 * <p>Writing uses Paimon's member order ({@code version, id, fields, highestFieldId, partitionKeys,
 * primaryKeys, options, comment?, timeMillis}) and its pretty printer ({@link MetadataJson}); options
 * are written sorted by key (readers do not care about the order).
 *
 * <p>Reading ignores unknown members and applies Paimon's compatibility rules: a missing
 * {@code version} is 1; version ≤ 1 without {@code bucket} gets {@code bucket=1}; version ≤ 2 without
 * {@code file.format} gets {@code file.format=orc}; missing {@code timeMillis} is 0; missing
 * {@code highestFieldId} is derived from the fields; missing key lists are empty. The version read
 * is kept in the result. Malformed input fails with an {@link IllegalArgumentException} saying what
 * is wrong (callers add the file name).
 */
public final class SchemaSerializer {
    private SchemaSerializer() {}

    public static String toJson(TableSchema schema) {
        return MetadataJson.render(g -> {
            g.writeStartObject();
            g.writeNumberField("version", schema.version());
            g.writeNumberField("id", schema.id());
            g.writeFieldName("fields");
            DataTypeJson.writeFields(g, schema.fields());
            g.writeNumberField("highestFieldId", schema.highestFieldId());
            writeStrings(g, "partitionKeys", schema.partitionKeys());
            writeStrings(g, "primaryKeys", schema.primaryKeys());
            g.writeObjectFieldStart("options");
            for (Map.Entry<String, String> e : new TreeMap<>(schema.options()).entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
            if (schema.comment() != null) {
                g.writeStringField("comment", schema.comment());
            }
            g.writeNumberField("timeMillis", schema.timeMillis());
            g.writeEndObject();
        });
    }

    private static void writeStrings(com.fasterxml.jackson.core.JsonGenerator g, String name, List<String> values)
            throws java.io.IOException {
        g.writeArrayFieldStart(name);
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
    }

    /**
     * Parses schema JSON.
     *
     * @throws IllegalArgumentException if the text is not a valid schema document
     */
    public static TableSchema fromJson(String json) {
        JsonNode root = MetadataJson.parseObject(json);
        int version = root.has("version") ? MetadataJson.requireInt(root, "version") : 1;
        if (version > TableSchema.CURRENT_VERSION) {
            throw new UnsupportedTableFeatureException("it has version " + version + ", written by a newer Paimon; "
                    + "this store reads schema versions up to " + TableSchema.CURRENT_VERSION);
        }
        long id = MetadataJson.requireLong(root, "id");
        List<DataField> fields = DataTypeJson.readFields(root.get("fields"));
        int highestFieldId = root.has("highestFieldId")
                ? MetadataJson.requireInt(root, "highestFieldId")
                : new dev.streamhouse.storage.types.RowType(fields).highestFieldId();
        List<String> partitionKeys = readStrings(root, "partitionKeys");
        List<String> primaryKeys = readStrings(root, "primaryKeys");
        Map<String, String> options = readOptions(root);
        if (version <= 1 && !options.containsKey(BucketOptions.BUCKET.key())) {
            options.put(BucketOptions.BUCKET.key(), "1");
        }
        if (version <= 2 && !options.containsKey(FileFormatOptions.FILE_FORMAT.key())) {
            options.put(FileFormatOptions.FILE_FORMAT.key(), "orc");
        }
        String comment = MetadataJson.optionalString(root, "comment");
        Long timeMillis = MetadataJson.optionalLong(root, "timeMillis");
        return new TableSchema(version, id, fields, highestFieldId, partitionKeys, primaryKeys, options, comment,
                timeMillis == null ? 0L : timeMillis);
    }

    private static List<String> readStrings(JsonNode root, String name) {
        JsonNode node = root.get(name);
        List<String> out = new ArrayList<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isArray()) {
            throw new IllegalArgumentException("field '" + name + "' must be an array of strings");
        }
        for (JsonNode v : node) {
            if (!v.isTextual()) {
                throw new IllegalArgumentException("field '" + name + "' must be an array of strings but holds " + v);
            }
            out.add(v.textValue());
        }
        return out;
    }

    private static Map<String, String> readOptions(JsonNode root) {
        JsonNode node = root.get("options");
        Map<String, String> out = new HashMap<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("field 'options' must be an object of strings");
        }
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new IllegalArgumentException("option '" + e.getKey() + "' must be a string but is " + e.getValue());
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }
}
