package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.stats.SimpleStats;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.Encoder;

import java.io.IOException;
import java.util.List;

/** Encodes and decodes the SimpleStats record (docs/format.md §5.2): min row, max row, nullable null counts. */
final class SimpleStatsCodec {
    private SimpleStatsCodec() {}

    static void write(SimpleStats stats, Encoder out) throws IOException {
        out.writeBytes(stats.minValues().toSerializedBytes());
        out.writeBytes(stats.maxValues().toSerializedBytes());
        Long[] nullCounts = stats.nullCounts();
        if (nullCounts == null) {
            AvroEncoding.writeNull(out);
            return;
        }
        out.writeIndex(1);
        out.writeArrayStart();
        out.setItemCount(nullCounts.length);
        for (Long count : nullCounts) {
            out.startItem();
            AvroEncoding.writeNullableLong(out, count);
        }
        out.writeArrayEnd();
    }

    static SimpleStats read(GenericRecord record) {
        BinaryRow min = row(AvroSupport.requireBytes(record, "_MIN_VALUES"), "_MIN_VALUES");
        BinaryRow max = row(AvroSupport.requireBytes(record, "_MAX_VALUES"), "_MAX_VALUES");
        List<?> counts = AvroSupport.optionalList(record, "_NULL_COUNTS");
        Long[] nullCounts = null;
        if (counts != null) {
            nullCounts = new Long[counts.size()];
            for (int i = 0; i < nullCounts.length; i++) {
                Object c = counts.get(i);
                if (c != null && !(c instanceof Long)) {
                    throw new IllegalArgumentException("_NULL_COUNTS holds a " + c.getClass().getSimpleName());
                }
                nullCounts[i] = (Long) c;
            }
        }
        return new SimpleStats(min, max, nullCounts);
    }

    /** Parses a serialized BinaryRow (docs/format.md §6.2), naming the field on failure. */
    static BinaryRow row(byte[] serialized, String field) {
        try {
            return BinaryRow.fromSerializedBytes(serialized);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("field " + field + " is not a serialized row: " + e.getMessage(), e);
        }
    }
}
