package dev.streamhouse.flink.cdc.kafka.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcTableId;

import java.io.IOException;
import java.util.List;

/**
 * Plain JSON objects ({@code value.format} = {@code json}), e.g. log events: every record is an insert
 * of its fields, all strings; the records name no table, so only a table sync takes them, and the
 * primary key comes from {@code --primary_keys}.
 */
final class PlainJson implements CdcFormat {
    private static final CdcTableId TABLE = new CdcTableId("", "");

    private final ObjectMapper mapper = new ObjectMapper();
    private final UntypedRows rows = new UntypedRows();

    @Override
    public List<CdcRecord> parse(byte[] key, byte[] value) throws IOException {
        if (value == null) {
            return List.of();
        }
        JsonNode row = mapper.readTree(value);
        if (row == null || !row.isObject()) {
            throw new IllegalArgumentException("it is no JSON object");
        }
        return List.of(UntypedRows.insert(rows.schema(TABLE, row, List.of()), row, 0L));
    }
}
