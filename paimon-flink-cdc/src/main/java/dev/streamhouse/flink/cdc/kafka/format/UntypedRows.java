package dev.streamhouse.flink.cdc.kafka.format;

import com.fasterxml.jackson.databind.JsonNode;
import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.event.MySqlType;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Rows of formats that carry no column types (Maxwell, OGG, AWS DMS, plain JSON): every column is a
 * string (TEXT, as Apache Paimon makes them), its value the JSON value's text, in the order the row
 * object lists its fields; a JSON null is NULL.
 */
final class UntypedRows {
    private static final MySqlType TEXT = new MySqlType("TEXT", false, -1, -1);

    private final SchemaCache schemas = new SchemaCache();

    /** The schema of a table from one row image; key columns are NOT NULL. */
    CdcSchema schema(CdcTableId table, JsonNode image, List<String> primaryKeys) {
        List<CdcColumn> columns = new ArrayList<>();
        Iterator<String> names = image.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            columns.add(new CdcColumn(name, TEXT, !primaryKeys.contains(name), null));
        }
        return schemas.schema(table, columns, primaryKeys);
    }

    /** The row image's values in the schema's column order (a column it lacks is NULL). */
    static Object[] row(CdcSchema schema, JsonNode image) {
        Object[] row = new Object[schema.columns().size()];
        for (int i = 0; i < row.length; i++) {
            row[i] = text(image.get(schema.columns().get(i).name()));
        }
        return row;
    }

    /** The row before an update: the row after with the previous values of the columns in {@code old}. */
    static Object[] before(CdcSchema schema, Object[] after, JsonNode old) {
        return before(schema, after, old, (column, v) -> text(v));
    }

    /** The same, with the values of {@code old} converted by {@code value}. */
    static Object[] before(CdcSchema schema, Object[] after, JsonNode old,
            BiFunction<CdcColumn, JsonNode, Object> value) {
        Object[] before = after.clone();
        if (old != null && old.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = old.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                int c = schema.indexOf(f.getKey());
                if (c >= 0) {
                    before[c] = value.apply(schema.columns().get(c), f.getValue());
                }
            }
        }
        return before;
    }

    static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        if (array != null && array.isArray()) {
            for (JsonNode n : array) {
                names.add(n.asText());
            }
        }
        return names;
    }

    static CdcRecord insert(CdcSchema schema, JsonNode after, long ts) {
        return new CdcRecord(schema, CdcRecord.Op.INSERT, null, row(schema, after), ts, false);
    }

    /**
     * An update; without a before image (formats write one only when configured to) an insert of the row
     * after, which replaces the key's row in a primary-key table.
     */
    static CdcRecord update(CdcSchema schema, JsonNode before, JsonNode after, long ts) {
        if (before == null || !before.isObject()) {
            return insert(schema, after, ts);
        }
        return new CdcRecord(schema, CdcRecord.Op.UPDATE, row(schema, before), row(schema, after), ts, false);
    }

    static JsonNode object(JsonNode node, String what) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("it has no '" + what + "' object");
        }
        return node;
    }

    private static String text(JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        return v.isTextual() ? v.textValue() : v.toString();
    }
}
