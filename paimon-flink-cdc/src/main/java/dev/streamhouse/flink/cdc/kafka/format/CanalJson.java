package dev.streamhouse.flink.cdc.kafka.format;

import com.fasterxml.jackson.databind.JsonNode;
import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.event.MySqlType;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Canal's JSON messages ({@code value.format} = {@code canal-json}): one message per statement, its rows
 * in {@code data} (for an UPDATE the changed columns' previous values in {@code old}, row by row), the
 * table in {@code database} and {@code table}, the operation in {@code type} ({@code INSERT},
 * {@code UPDATE}, {@code DELETE}; DDL messages, {@code isDdl} true, carry no rows: the schema of the next
 * rows reflects them). Column types are the MySQL declarations in {@code mysqlType}
 * ({@code "int(11) unsigned"}, {@code "varchar(255)"}), the primary key is {@code pkNames}, values are
 * text, read in the source server's time zone for TIMESTAMP.
 */
final class CanalJson extends JsonFormat {
    private final SchemaCache schemas = new SchemaCache();
    private final ZoneId serverZone;
    /** Parsed {@code mysqlType} declarations, by their text. */
    private final Map<String, MySqlType> declarations = new HashMap<>();

    CanalJson(ZoneId serverZone) {
        this.serverZone = serverZone;
    }

    @Override
    protected List<CdcRecord> parse(byte[] key, JsonNode root) {
        if (!root.isObject()) {
            throw new IllegalArgumentException("it is no JSON object: not a Canal message");
        }
        if (root.path("isDdl").asBoolean(false)) {
            return List.of();
        }
        String type = root.path("type").asText("");
        CdcRecord.Op op;
        switch (type.toUpperCase(Locale.ROOT)) {
            case "INSERT":
            case "INIT":
                op = CdcRecord.Op.INSERT;
                break;
            case "UPDATE":
                op = CdcRecord.Op.UPDATE;
                break;
            case "DELETE":
                op = CdcRecord.Op.DELETE;
                break;
            case "":
                throw new IllegalArgumentException("it has no 'type' field: not a Canal message");
            default:
                return List.of(); // CREATE, ALTER, ... without isDdl, QUERY
        }
        JsonNode data = root.get("data");
        if (data == null || !data.isArray()) {
            throw new IllegalArgumentException("a Canal " + type + " message without a 'data' array");
        }
        if (data.isEmpty()) {
            return List.of();
        }
        CdcTableId table = new CdcTableId(root.path("database").asText(""), root.path("table").asText(""));
        List<String> primaryKeys = new ArrayList<>();
        for (JsonNode k : root.path("pkNames")) {
            primaryKeys.add(k.asText());
        }
        CdcSchema schema = schemas.schema(table, columns(root.path("mysqlType"), data.get(0), primaryKeys),
                primaryKeys);
        long ts = root.path("es").asLong(root.path("ts").asLong(0));
        JsonNode old = root.get("old");
        List<CdcRecord> records = new ArrayList<>(data.size());
        for (int i = 0; i < data.size(); i++) {
            Object[] row = row(schema, data.get(i));
            switch (op) {
                case INSERT:
                    records.add(new CdcRecord(schema, op, null, row, ts, type.equalsIgnoreCase("INIT")));
                    break;
                case DELETE:
                    records.add(new CdcRecord(schema, op, row, null, ts, false));
                    break;
                default: {
                    JsonNode previous = old != null && old.isArray() && i < old.size() ? old.get(i) : null;
                    Object[] before = UntypedRows.before(schema, row, previous, this::value);
                    records.add(new CdcRecord(schema, op, before, row, ts, false));
                }
            }
        }
        return records;
    }

    private List<CdcColumn> columns(JsonNode mysqlType, JsonNode firstRow, List<String> primaryKeys) {
        List<CdcColumn> columns = new ArrayList<>();
        boolean typed = mysqlType.isObject() && !mysqlType.isEmpty();
        Iterator<String> names = typed ? mysqlType.fieldNames() : firstRow.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            MySqlType type = typed ? declarations.computeIfAbsent(mysqlType.get(name).asText(), CanalJson::declared)
                    : new MySqlType("TEXT", false, -1, -1);
            columns.add(new CdcColumn(name, type, !primaryKeys.contains(name), null));
        }
        return columns;
    }

    /** A declaration as {@code SHOW CREATE TABLE} writes it: {@code decimal(10,2) unsigned zerofill}. */
    static MySqlType declared(String declaration) {
        String d = declaration.trim();
        int open = d.indexOf('(');
        int close = d.lastIndexOf(')');
        String name = (open < 0 ? d.split("\\s+")[0] : d.substring(0, open)).trim();
        String modifiers = (close < 0 ? d.substring(name.length()) : d.substring(close + 1)).toUpperCase(Locale.ROOT);
        int length = -1;
        int scale = -1;
        String upperName = name.toUpperCase(Locale.ROOT);
        if (open >= 0 && close > open && !upperName.equals("ENUM") && !upperName.equals("SET")) {
            String[] args = d.substring(open + 1, close).split(",");
            try {
                length = Integer.parseInt(args[0].trim());
                if (args.length > 1) {
                    scale = Integer.parseInt(args[1].trim());
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("mysqlType '" + declaration + "' is no MySQL type declaration");
            }
        }
        return new MySqlType(upperName, modifiers.contains("UNSIGNED"), length, scale);
    }

    private Object[] row(CdcSchema schema, JsonNode data) {
        Object[] row = new Object[schema.columns().size()];
        for (int c = 0; c < row.length; c++) {
            CdcColumn column = schema.columns().get(c);
            row[c] = value(column, data.get(column.name()));
        }
        return row;
    }

    private Object value(CdcColumn column, JsonNode v) {
        if (v == null || v.isNull()) {
            return null;
        }
        try {
            return TextValues.parse(v.isTextual() ? v.textValue() : v.toString(), column.type(), serverZone);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("column '" + column.name() + "': " + e.getMessage(), e);
        }
    }
}
