package dev.streamhouse.flink.cdc.kafka.format;

import com.fasterxml.jackson.databind.JsonNode;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;

import java.io.IOException;
import java.util.List;

/**
 * Maxwell's JSON ({@code value.format} = {@code maxwell-json}): one row per message, the table in
 * {@code database} and {@code table}, the operation in {@code type} ({@code insert} and
 * {@code bootstrap-insert}, {@code update} with the changed columns' previous values in {@code old},
 * {@code delete}; DDL and bootstrap markers carry no rows), the row in {@code data}, the primary key in
 * {@code primary_key_columns} when Maxwell writes it ({@code output_primary_key_columns}). Maxwell
 * writes no column types: every column is a string.
 */
final class MaxwellJson extends JsonFormat {
    private final UntypedRows rows = new UntypedRows();

    @Override
    protected List<CdcRecord> parse(byte[] key, JsonNode root) throws IOException {
        String type = root.path("type").asText("");
        CdcRecord.Op op;
        switch (type) {
            case "insert":
            case "bootstrap-insert":
                op = CdcRecord.Op.INSERT;
                break;
            case "update":
                op = CdcRecord.Op.UPDATE;
                break;
            case "delete":
                op = CdcRecord.Op.DELETE;
                break;
            case "":
                throw new IllegalArgumentException("it has no 'type' field: not a Maxwell message");
            default:
                return List.of(); // table-create, table-alter, bootstrap-start, bootstrap-complete, ...
        }
        JsonNode data = UntypedRows.object(root.get("data"), "data");
        CdcTableId table = new CdcTableId(root.path("database").asText(""), root.path("table").asText(""));
        CdcSchema schema = rows.schema(table, data, UntypedRows.names(root.get("primary_key_columns")));
        long ts = root.path("ts").asLong(0) * 1000L;
        Object[] row = UntypedRows.row(schema, data);
        switch (op) {
            case INSERT:
                return List.of(new CdcRecord(schema, op, null, row, ts, type.startsWith("bootstrap")));
            case DELETE:
                return List.of(new CdcRecord(schema, op, row, null, ts, false));
            default:
                return List.of(new CdcRecord(schema, op, UntypedRows.before(schema, row, root.get("old")), row, ts,
                        false));
        }
    }
}
