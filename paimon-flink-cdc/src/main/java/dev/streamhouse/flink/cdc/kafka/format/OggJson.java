package dev.streamhouse.flink.cdc.kafka.format;

import com.fasterxml.jackson.databind.JsonNode;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;

import java.io.IOException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Oracle GoldenGate's JSON ({@code value.format} = {@code ogg-json}): one row per message, the table
 * as {@code SCHEMA.TABLE} in {@code table}, the operation in {@code op_type} ({@code I}, {@code U},
 * {@code D}; {@code T} truncates carry no rows), the rows in {@code before} and {@code after}, the
 * primary key in {@code primary_keys}. An update without a before image (GoldenGate writes one only
 * when told to) is written as an insert of the row after, which replaces the key's row. No column
 * types: every column is a string.
 */
final class OggJson extends JsonFormat {
    private final UntypedRows rows = new UntypedRows();

    @Override
    protected List<CdcRecord> parse(byte[] key, JsonNode root) throws IOException {
        String opType = root.path("op_type").asText("");
        if (opType.isEmpty()) {
            throw new IllegalArgumentException("it has no 'op_type' field: not an OGG message");
        }
        if (opType.equals("T")) {
            return List.of();
        }
        String name = root.path("table").asText("");
        int dot = name.lastIndexOf('.');
        CdcTableId table = new CdcTableId(dot < 0 ? "" : name.substring(0, dot), name.substring(dot + 1));
        List<String> keys = UntypedRows.names(root.get("primary_keys"));
        long ts = timestamp(root.path("op_ts").asText(""));
        JsonNode before = root.get("before");
        JsonNode after = root.get("after");
        switch (opType) {
            case "I": {
                JsonNode image = UntypedRows.object(after, "after");
                return List.of(UntypedRows.insert(rows.schema(table, image, keys), image, ts));
            }
            case "U": {
                JsonNode image = UntypedRows.object(after, "after");
                return List.of(UntypedRows.update(rows.schema(table, image, keys), before, image, ts));
            }
            case "D": {
                JsonNode image = UntypedRows.object(before, "before");
                CdcSchema schema = rows.schema(table, image, keys);
                return List.of(new CdcRecord(schema, CdcRecord.Op.DELETE, UntypedRows.row(schema, image), null, ts,
                        false));
            }
            default:
                throw new IllegalArgumentException("unknown OGG op_type '" + opType + "'");
        }
    }

    /** {@code op_ts} ({@code 2020-05-13 15:40:06.000000}, UTC) in epoch milliseconds; 0 when absent. */
    private static long timestamp(String text) {
        if (text.isEmpty()) {
            return 0L;
        }
        try {
            return LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            return 0L;
        }
    }
}
