package dev.streamhouse.flink.cdc.debezium;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcSchemaChange;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.event.MySqlType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Turns Debezium's records into {@link CdcEvent}s. Schema-change records become
 * {@link CdcSchemaChange}s (one per changed captured table); data records become {@link CdcRecord}s
 * over the table's current schema. When a data record's columns differ from the schema known for
 * its table (the first record after a restore, when Debezium replays no DDL), a schema change
 * without DDL comes first. Heartbeats and other records give no event. Not thread-safe: one per
 * engine run.
 */
public final class SourceRecordConverter {

    static final String TYPE = "__debezium.source.column.type";
    static final String LENGTH = "__debezium.source.column.length";
    static final String SCALE = "__debezium.source.column.scale";
    static final String COMMENT = "__debezium.source.column.comment";

    private final String topicPrefix;
    private final BiPredicate<String, String> captured;
    private final Map<CdcTableId, CdcSchema> schemas = new HashMap<>();
    private final Map<Schema, List<CdcColumn>> columnsBySchema = new IdentityHashMap<>();

    public SourceRecordConverter(String topicPrefix, BiPredicate<String, String> captured) {
        this(topicPrefix, captured, List.of());
    }

    /**
     * Knowing {@code schemas} already (a chunked snapshot's): records and schema changes of these
     * tables that do not change their structure give no schema change.
     */
    public SourceRecordConverter(String topicPrefix, BiPredicate<String, String> captured, List<CdcSchema> schemas) {
        this.topicPrefix = topicPrefix;
        this.captured = captured;
        for (CdcSchema schema : schemas) {
            this.schemas.put(schema.table(), schema);
        }
    }

    /** The binlog position of a data record's event ({@code file} and {@code pos} of its source); null for others. */
    public static dev.streamhouse.flink.cdc.mysql.BinlogPosition positionOf(SourceRecord record) {
        if (!(record.value() instanceof Struct value) || value.schema().field("source") == null) {
            return null;
        }
        Struct source = value.getStruct("source");
        if (source == null || source.schema().field("file") == null || source.schema().field("pos") == null) {
            return null;
        }
        String file = source.getString("file");
        Object pos = source.get("pos");
        if (file == null || file.isEmpty() || !(pos instanceof Number number)) {
            return null;
        }
        return new dev.streamhouse.flink.cdc.mysql.BinlogPosition(file, number.longValue());
    }

    /** The events of one record, in order; empty for heartbeats and the like. */
    public List<CdcEvent> convert(SourceRecord record) {
        if (record.value() == null || !(record.value() instanceof Struct value)) {
            return List.of();
        }
        if (topicPrefix.equals(record.topic())) {
            return schemaChanges(value);
        }
        if (value.schema().field("op") == null || value.schema().field("source") == null) {
            return List.of();
        }
        return dataChange(record, value);
    }

    private List<CdcEvent> dataChange(SourceRecord record, Struct value) {
        Struct source = value.getStruct("source");
        CdcTableId table = new CdcTableId(source.getString("db"), source.getString("table"));
        String op = value.getString("op");
        Struct before = value.getStruct("before");
        Struct after = value.getStruct("after");
        Schema rowSchema = (after != null ? after : before).schema();
        List<CdcColumn> columns = columnsBySchema.computeIfAbsent(rowSchema, SourceRecordConverter::columnsOf);
        List<String> keys = keyColumns(record.keySchema());
        List<CdcEvent> events = new ArrayList<>(2);
        CdcSchema schema = schemas.get(table);
        if (schema == null || !sameShape(schema, columns, keys)) {
            schema = new CdcSchema(table, columns, keys, schema == null ? 1 : schema.version() + 1);
            schemas.put(table, schema);
            events.add(new CdcSchemaChange(schema, null));
        }
        long ts = source.getInt64("ts_ms") == null ? 0 : source.getInt64("ts_ms");
        Object[] beforeRow = before == null ? null : row(before, schema);
        Object[] afterRow = after == null ? null : row(after, schema);
        CdcRecord change = switch (op) {
            case "c", "r" -> new CdcRecord(schema, CdcRecord.Op.INSERT, null, afterRow, ts, "r".equals(op));
            case "u" -> new CdcRecord(schema, CdcRecord.Op.UPDATE, beforeRow, afterRow, ts, false);
            case "d" -> new CdcRecord(schema, CdcRecord.Op.DELETE, beforeRow, null, ts, false);
            default -> null;
        };
        if (change != null) {
            events.add(change);
        }
        return events;
    }

    private List<CdcEvent> schemaChanges(Struct value) {
        List<CdcEvent> events = new ArrayList<>();
        String ddl = value.schema().field("ddl") == null ? null : value.getString("ddl");
        List<Object> changes = value.schema().field("tableChanges") == null ? null : value.getArray("tableChanges");
        if (changes == null) {
            return events;
        }
        for (Object c : changes) {
            Struct change = (Struct) c;
            String type = change.getString("type");
            Struct tableStruct = change.getStruct("table");
            if (tableStruct == null || "DROP".equals(type)) {
                continue;
            }
            CdcTableId table = parseTableId(change.getString("id"));
            if (!captured.test(table.database(), table.table())) {
                continue;
            }
            List<String> keys = new ArrayList<>();
            List<Object> pk = tableStruct.getArray("primaryKeyColumnNames");
            if (pk != null) {
                for (Object k : pk) {
                    keys.add(k.toString());
                }
            }
            List<CdcColumn> columns = new ArrayList<>();
            for (Object col : tableStruct.getArray("columns")) {
                Struct column = (Struct) col;
                Integer length = column.getInt32("length");
                Integer scale = column.getInt32("scale");
                MySqlType mySqlType = MySqlType.of(column.getString("typeName"), length == null ? -1 : length,
                        scale == null ? -1 : scale);
                String comment = column.schema().field("comment") == null ? null : column.getString("comment");
                columns.add(new CdcColumn(column.getString("name"), mySqlType,
                        Boolean.TRUE.equals(column.getBoolean("optional")), comment));
            }
            CdcSchema previous = schemas.get(table);
            CdcSchema schema = new CdcSchema(table, columns, keys, previous == null ? 1 : previous.version() + 1);
            if (previous != null && previous.sameStructure(schema)) {
                continue;
            }
            schemas.put(table, schema);
            events.add(new CdcSchemaChange(schema, ddl));
        }
        return events;
    }

    private static Object[] row(Struct struct, CdcSchema schema) {
        List<CdcColumn> columns = schema.columns();
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < row.length; i++) {
            CdcColumn column = columns.get(i);
            Field field = struct.schema().field(column.name());
            row[i] = ConnectValues.convert(struct.get(field), field.schema(), column.type(), column.name());
        }
        return row;
    }

    /** Same column names, types and nullability, and the same key (comments are not in data records). */
    private static boolean sameShape(CdcSchema schema, List<CdcColumn> columns, List<String> keys) {
        if (!schema.primaryKeys().equals(keys) || schema.columns().size() != columns.size()) {
            return false;
        }
        for (int i = 0; i < columns.size(); i++) {
            CdcColumn a = schema.columns().get(i);
            CdcColumn b = columns.get(i);
            if (!a.name().equals(b.name()) || !a.type().equals(b.type()) || a.nullable() != b.nullable()) {
                return false;
            }
        }
        return true;
    }

    private static List<CdcColumn> columnsOf(Schema rowSchema) {
        List<CdcColumn> columns = new ArrayList<>();
        for (Field field : rowSchema.fields()) {
            Map<String, String> parameters = field.schema().parameters();
            if (parameters == null || !parameters.containsKey(TYPE)) {
                throw new IllegalStateException("Debezium record for column '" + field.name()
                        + "' lacks its source type; the engine must run with column.propagate.source.type");
            }
            columns.add(new CdcColumn(field.name(), MySqlType.of(parameters.get(TYPE), intParameter(parameters, LENGTH),
                    intParameter(parameters, SCALE)), field.schema().isOptional(), parameters.get(COMMENT)));
        }
        return columns;
    }

    private static int intParameter(Map<String, String> parameters, String key) {
        String value = parameters.get(key);
        return value == null ? -1 : Integer.parseInt(value);
    }

    private static List<String> keyColumns(Schema keySchema) {
        List<String> keys = new ArrayList<>();
        if (keySchema != null && keySchema.type() == Schema.Type.STRUCT) {
            for (Field field : keySchema.fields()) {
                keys.add(field.name());
            }
        }
        return keys;
    }

    /** Debezium writes table ids as {@code "db"."table"} or {@code db.table}. */
    static CdcTableId parseTableId(String id) {
        String s = id.trim();
        if (s.startsWith("\"")) {
            int end = s.indexOf("\".\"");
            return new CdcTableId(s.substring(1, end), s.substring(end + 3, s.length() - 1));
        }
        int dot = s.indexOf('.');
        return new CdcTableId(s.substring(0, dot), s.substring(dot + 1));
    }
}
