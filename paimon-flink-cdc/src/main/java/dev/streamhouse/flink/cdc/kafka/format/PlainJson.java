package dev.streamhouse.flink.cdc.kafka.format;

import com.fasterxml.jackson.databind.JsonNode;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcTableId;

import java.util.List;

/**
 * Plain JSON objects ({@code value.format} = {@code json}), e.g. log events: every record is an insert
 * of its fields, all strings; the records name no table, so only a table sync takes them, and the
 * primary key comes from {@code --primary_keys}.
 */
final class PlainJson extends JsonFormat {
    private static final CdcTableId TABLE = new CdcTableId("", "");

    private final UntypedRows rows = new UntypedRows();

    @Override
    protected List<CdcRecord> parse(byte[] key, JsonNode root) {
        if (!root.isObject()) {
            throw new IllegalArgumentException("it is no JSON object");
        }
        return List.of(UntypedRows.insert(rows.schema(TABLE, root, List.of()), root, 0L));
    }
}
