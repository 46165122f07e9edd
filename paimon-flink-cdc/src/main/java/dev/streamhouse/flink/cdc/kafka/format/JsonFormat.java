package dev.streamhouse.flink.cdc.kafka.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.streamhouse.flink.cdc.event.CdcRecord;

import java.io.IOException;
import java.util.List;

/** A format whose record values are JSON: a tombstone (no value) carries no rows, the rest is parsed. */
abstract class JsonFormat implements CdcFormat {
    protected final ObjectMapper mapper;

    JsonFormat() {
        this(new ObjectMapper());
    }

    JsonFormat(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    public final List<CdcRecord> parse(byte[] key, byte[] value) throws IOException {
        if (value == null) {
            return List.of();
        }
        JsonNode root = mapper.readTree(value);
        if (root == null || root.isMissingNode() || root.isNull()) {
            return List.of();
        }
        return parse(key, root);
    }

    /** The changes of a record whose value is {@code root} (not JSON null). */
    protected abstract List<CdcRecord> parse(byte[] key, JsonNode root) throws IOException;
}
