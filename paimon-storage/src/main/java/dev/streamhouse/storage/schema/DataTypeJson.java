package dev.streamhouse.storage.schema;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.streamhouse.storage.NewerPaimonFeatures;
import dev.streamhouse.storage.UnsupportedTableFeatureException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * JSON form of types and fields in schema files (docs/format.md §3.2, §3.3).
 *
 * <p>Atomic types are JSON strings in their exact SQL spelling ({@link DataType#asSQLString()}).
 * ARRAY, MULTISET, MAP and ROW are objects whose {@code type} member carries the kind and, as
 * {@code " NOT NULL"}, the nullability: {@code {"type":"ARRAY","element":...}},
 * {@code {"type":"MAP","key":...,"value":...}}, {@code {"type":"ROW","fields":[...]}}.
 *
 * <p>Reading follows Paimon's leniency: a composite kind is recognised by the {@code type} member
 * starting with ARRAY/MULTISET/MAP/ROW (case-insensitive) and is non-null iff it contains
 * {@code NOT NULL}. Malformed input fails with an {@link IllegalArgumentException}.
 */
public final class DataTypeJson {
    private DataTypeJson() {}

    /** Writes {@code type} as the current value. */
    public static void write(JsonGenerator g, DataType type) throws IOException {
        String notNull = type.isNullable() ? "" : " NOT NULL";
        switch (type.root()) {
            case ARRAY:
            case MULTISET:
                g.writeStartObject();
                g.writeStringField("type", type.root().name() + notNull);
                g.writeFieldName("element");
                write(g, ((ArrayType) type).elementType());
                g.writeEndObject();
                return;
            case MAP:
                g.writeStartObject();
                g.writeStringField("type", "MAP" + notNull);
                g.writeFieldName("key");
                write(g, ((MapType) type).keyType());
                g.writeFieldName("value");
                write(g, ((MapType) type).valueType());
                g.writeEndObject();
                return;
            case ROW:
                g.writeStartObject();
                g.writeStringField("type", "ROW" + notNull);
                g.writeFieldName("fields");
                writeFields(g, ((RowType) type).fields());
                g.writeEndObject();
                return;
            default:
                g.writeString(type.asSQLString());
        }
    }

    /** Writes a JSON array of fields. */
    public static void writeFields(JsonGenerator g, List<DataField> fields) throws IOException {
        g.writeStartArray();
        for (DataField field : fields) {
            writeField(g, field);
        }
        g.writeEndArray();
    }

    /** Writes {@code {"id", "name", "type", "description"?, "defaultValue"?}}. */
    public static void writeField(JsonGenerator g, DataField field) throws IOException {
        g.writeStartObject();
        g.writeNumberField("id", field.id());
        g.writeStringField("name", field.name());
        g.writeFieldName("type");
        write(g, field.type());
        if (field.description() != null) {
            g.writeStringField("description", field.description());
        }
        if (field.defaultValue() != null) {
            g.writeStringField("defaultValue", field.defaultValue());
        }
        g.writeEndObject();
    }

    /** Reads a type from its JSON form (a string or an object). */
    public static DataType read(JsonNode node) {
        if (node == null || node.isNull()) {
            throw new IllegalArgumentException("Cannot read type: it is missing");
        }
        if (node.isTextual()) {
            refuseNewerType(node.textValue());
            return DataTypeParser.parse(node.textValue());
        }
        if (!node.isObject() || !node.path("type").isTextual()) {
            throw new IllegalArgumentException("Cannot read type " + node + ": expected a string or an object with a 'type'");
        }
        refuseNewerType(node.get("type").textValue());
        String kind = node.get("type").textValue().trim().toUpperCase(Locale.ROOT);
        boolean nullable = !kind.contains("NOT NULL");
        if (kind.startsWith("ARRAY")) {
            return ArrayType.array(nullable, read(node.get("element")));
        }
        if (kind.startsWith("MULTISET")) {
            return ArrayType.multiset(nullable, read(node.get("element")));
        }
        if (kind.startsWith("MAP")) {
            return new MapType(nullable, read(node.get("key")), read(node.get("value")));
        }
        if (kind.startsWith("ROW")) {
            return new RowType(nullable, readFields(node.get("fields")));
        }
        throw new IllegalArgumentException("Cannot read type " + node + ": unknown composite type '" + kind + "'");
    }

    /** Refuses a type a newer Paimon added (BLOB, VECTOR, ...): its values cannot be read or written here. */
    private static void refuseNewerType(String typeText) {
        NewerPaimonFeatures.newerColumnType(typeText).ifPresent(type -> {
            throw new UnsupportedTableFeatureException("it has a column of type " + type + " (added in "
                    + NewerPaimonFeatures.COLUMN_TYPES.get(type) + "), which this store does not read or write");
        });
    }

    /** Reads a JSON array of fields. */
    public static List<DataField> readFields(JsonNode node) {
        if (node == null || !node.isArray()) {
            throw new IllegalArgumentException("Cannot read fields: expected an array but found " + node);
        }
        List<DataField> out = new ArrayList<>(node.size());
        for (JsonNode f : node) {
            out.add(readField(f));
        }
        return out;
    }

    /** Reads one field object. */
    public static DataField readField(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("Cannot read field: expected an object but found " + node);
        }
        JsonNode id = node.get("id");
        JsonNode name = node.get("name");
        if (id == null || !id.canConvertToInt() || !id.isIntegralNumber()) {
            throw new IllegalArgumentException("Cannot read field " + node + ": 'id' must be an int");
        }
        if (name == null || !name.isTextual()) {
            throw new IllegalArgumentException("Cannot read field " + node + ": 'name' must be a string");
        }
        DataType type;
        try {
            type = read(node.get("type"));
        } catch (UnsupportedTableFeatureException e) {
            throw new UnsupportedTableFeatureException(e.getMessage().replaceFirst("^it has a column of type ",
                    java.util.regex.Matcher.quoteReplacement("it has a column '" + name.textValue() + "' of type ")));
        }
        return new DataField(id.intValue(), name.textValue(), type,
                textOrNull(node, "description"), textOrNull(node, "defaultValue"));
    }

    private static String textOrNull(JsonNode node, String member) {
        JsonNode value = node.get(member);
        return value == null || value.isNull() ? null : value.asText();
    }
}
