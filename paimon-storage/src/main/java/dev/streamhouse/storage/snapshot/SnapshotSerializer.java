package dev.streamhouse.storage.snapshot;

import com.fasterxml.jackson.databind.JsonNode;
import dev.streamhouse.storage.schema.MetadataJson;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Converts {@link Snapshot} to and from the JSON of {@code snapshot/snapshot-<id>} (FORMAT §4.1).
 *
 * <p>Writing uses Paimon's member order and omission rules: {@code baseManifestList},
 * {@code deltaManifestList} and {@code changelogManifestList} are always written (the latter as
 * {@code null} when absent); the {@code *Size} members, {@code indexManifest}, {@code logOffsets},
 * {@code totalRecordCount}, {@code deltaRecordCount}, {@code changelogRecordCount}, {@code watermark},
 * {@code statistics} and {@code nextRowId} are omitted when null; {@code properties} is omitted when
 * null or empty. An empty {@code logOffsets} map is written as {@code { }}, as Paimon does.
 *
 * <p>Reading ignores unknown members; a missing {@code version} is 1; missing optional members are
 * null. {@code id}, {@code schemaId}, {@code baseManifestList}, {@code deltaManifestList},
 * {@code commitUser}, {@code commitIdentifier}, {@code commitKind} and {@code timeMillis} are required.
 * Malformed input fails with an {@link IllegalArgumentException} saying what is wrong (callers add
 * the file name).
 */
public final class SnapshotSerializer {
    private SnapshotSerializer() {}

    public static String toJson(Snapshot s) {
        return MetadataJson.render(g -> {
            g.writeStartObject();
            g.writeNumberField("version", s.version());
            g.writeNumberField("id", s.id());
            g.writeNumberField("schemaId", s.schemaId());
            g.writeStringField("baseManifestList", s.baseManifestList());
            writeOptional(g, "baseManifestListSize", s.baseManifestListSize());
            g.writeStringField("deltaManifestList", s.deltaManifestList());
            writeOptional(g, "deltaManifestListSize", s.deltaManifestListSize());
            g.writeStringField("changelogManifestList", s.changelogManifestList());
            writeOptional(g, "changelogManifestListSize", s.changelogManifestListSize());
            if (s.indexManifest() != null) {
                g.writeStringField("indexManifest", s.indexManifest());
            }
            g.writeStringField("commitUser", s.commitUser());
            g.writeNumberField("commitIdentifier", s.commitIdentifier());
            g.writeStringField("commitKind", s.commitKind().name());
            g.writeNumberField("timeMillis", s.timeMillis());
            if (s.logOffsets() != null) {
                g.writeObjectFieldStart("logOffsets");
                for (Map.Entry<Integer, Long> e : s.logOffsets().entrySet()) {
                    g.writeNumberField(String.valueOf(e.getKey()), e.getValue());
                }
                g.writeEndObject();
            }
            writeOptional(g, "totalRecordCount", s.totalRecordCount());
            writeOptional(g, "deltaRecordCount", s.deltaRecordCount());
            writeOptional(g, "changelogRecordCount", s.changelogRecordCount());
            writeOptional(g, "watermark", s.watermark());
            if (s.statistics() != null) {
                g.writeStringField("statistics", s.statistics());
            }
            if (s.properties() != null && !s.properties().isEmpty()) {
                g.writeObjectFieldStart("properties");
                for (Map.Entry<String, String> e : s.properties().entrySet()) {
                    g.writeStringField(e.getKey(), e.getValue());
                }
                g.writeEndObject();
            }
            writeOptional(g, "nextRowId", s.nextRowId());
            g.writeEndObject();
        });
    }

    private static void writeOptional(com.fasterxml.jackson.core.JsonGenerator g, String name, Long value)
            throws java.io.IOException {
        if (value != null) {
            g.writeNumberField(name, value);
        }
    }

    /**
     * Parses snapshot JSON.
     *
     * @throws IllegalArgumentException if the text is not a valid snapshot document
     */
    public static Snapshot fromJson(String json) {
        JsonNode n = MetadataJson.parseObject(json);
        int version = n.has("version") ? MetadataJson.requireInt(n, "version") : 1;
        return new Snapshot(
                version,
                MetadataJson.requireLong(n, "id"),
                MetadataJson.requireLong(n, "schemaId"),
                MetadataJson.requireString(n, "baseManifestList"),
                MetadataJson.optionalLong(n, "baseManifestListSize"),
                MetadataJson.requireString(n, "deltaManifestList"),
                MetadataJson.optionalLong(n, "deltaManifestListSize"),
                MetadataJson.optionalString(n, "changelogManifestList"),
                MetadataJson.optionalLong(n, "changelogManifestListSize"),
                MetadataJson.optionalString(n, "indexManifest"),
                MetadataJson.requireString(n, "commitUser"),
                MetadataJson.requireLong(n, "commitIdentifier"),
                commitKind(MetadataJson.requireString(n, "commitKind")),
                MetadataJson.requireLong(n, "timeMillis"),
                logOffsets(n.get("logOffsets")),
                MetadataJson.optionalLong(n, "totalRecordCount"),
                MetadataJson.optionalLong(n, "deltaRecordCount"),
                MetadataJson.optionalLong(n, "changelogRecordCount"),
                MetadataJson.optionalLong(n, "watermark"),
                MetadataJson.optionalString(n, "statistics"),
                properties(n.get("properties")),
                MetadataJson.optionalLong(n, "nextRowId"));
    }

    private static CommitKind commitKind(String text) {
        try {
            return CommitKind.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown commitKind '" + text + "'", e);
        }
    }

    private static Map<Integer, Long> logOffsets(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("field 'logOffsets' must be an object");
        }
        Map<Integer, Long> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            int bucket;
            try {
                bucket = Integer.parseInt(e.getKey());
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException("logOffsets key '" + e.getKey() + "' is not a bucket number", ex);
            }
            if (!e.getValue().isIntegralNumber() || !e.getValue().canConvertToLong()) {
                throw new IllegalArgumentException("logOffsets value of bucket " + bucket + " is not a long");
            }
            out.put(bucket, e.getValue().longValue());
        }
        return out;
    }

    private static Map<String, String> properties(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("field 'properties' must be an object");
        }
        Map<String, String> out = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new IllegalArgumentException("property '" + e.getKey() + "' must be a string");
            }
            out.put(e.getKey(), e.getValue().asText());
        }
        return out;
    }
}
