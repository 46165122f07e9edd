package dev.streamhouse.flink.cdc.kafka.format;

import com.fasterxml.jackson.databind.JsonNode;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;

import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * AWS DMS's JSON for Kafka targets ({@code value.format} = {@code aws-dms-json}): the row in
 * {@code data}, and in {@code metadata} the {@code record-type} ({@code data}; {@code control} records
 * carry no rows), the {@code operation} ({@code load} and {@code insert}, {@code update}, {@code delete})
 * and the table ({@code schema-name}, {@code table-name}). An update carries its before image in
 * {@code before-image} when the task's BeforeImageSettings ask for it; without, it is written as an
 * insert of the row after, which replaces the key's row. DMS writes neither column types nor the
 * primary key: every column is a string, and the key comes from {@code --primary_keys}.
 */
final class AwsDmsJson extends JsonFormat {
    private final UntypedRows rows = new UntypedRows();

    @Override
    protected List<CdcRecord> parse(byte[] key, JsonNode root) throws IOException {
        JsonNode metadata = UntypedRows.object(root.get("metadata"), "metadata");
        if (!metadata.path("record-type").asText("data").equals("data")) {
            return List.of();
        }
        String operation = metadata.path("operation").asText("");
        CdcTableId table = new CdcTableId(metadata.path("schema-name").asText(""),
                metadata.path("table-name").asText(""));
        JsonNode data = UntypedRows.object(root.get("data"), "data");
        CdcSchema schema = rows.schema(table, data, List.of());
        long ts = timestamp(metadata.path("timestamp").asText(""));
        switch (operation) {
            case "load":
            case "insert":
                return List.of(new CdcRecord(schema, CdcRecord.Op.INSERT, null, UntypedRows.row(schema, data), ts,
                        operation.equals("load")));
            case "update": {
                return List.of(UntypedRows.update(schema, root.get("before-image"), data, ts));
            }
            case "delete":
                return List.of(new CdcRecord(schema, CdcRecord.Op.DELETE, UntypedRows.row(schema, data), null, ts,
                        false));
            default:
                throw new IllegalArgumentException("unknown AWS DMS operation '" + operation + "'");
        }
    }

    /** {@code metadata.timestamp} (ISO-8601, UTC) in epoch milliseconds; 0 when absent. */
    private static long timestamp(String text) {
        if (text.isEmpty()) {
            return 0L;
        }
        try {
            return Instant.parse(text).toEpochMilli();
        } catch (DateTimeParseException e) {
            return 0L;
        }
    }
}
