package dev.streamhouse.flink.common.data;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;

/** Conversions of single Flink internal values to the storage's internal values. */
public final class FlinkValues {
    private FlinkValues() {}

    /**
     * The same UTF-8 string. A {@link BinaryStringData} whose bytes lie in one heap segment is
     * wrapped without copying (the result shares Flink's bytes); anything else is copied once.
     */
    public static BinaryString toStorage(StringData s) {
        if (s instanceof BinaryStringData) {
            BinaryStringData b = (BinaryStringData) s;
            MemorySegment[] segments = b.getSegments();
            if (segments.length == 1 && !segments[0].isOffHeap()) {
                return BinaryString.fromBytes(segments[0].getArray(), b.getOffset(), b.getSizeInBytes());
            }
        }
        return BinaryString.fromBytes(s.toBytes());
    }

    /** The same decimal at {@code precision} and {@code scale} (the value's own, as Flink's getter returned it). */
    public static Decimal toStorage(DecimalData d, int precision, int scale) {
        if (d.isCompact()) {
            return Decimal.fromUnscaledLong(d.toUnscaledLong(), precision, scale);
        }
        return Decimal.fromBigDecimal(d.toBigDecimal(), precision, scale);
    }

    /**
     * The same instant or local date-time: both models keep epoch milliseconds plus nanoseconds of
     * the millisecond, for TIMESTAMP (wall clock read as UTC) and TIMESTAMP_LTZ (an instant) alike.
     */
    public static Timestamp toStorage(TimestampData t) {
        return Timestamp.fromEpochMillis(t.getMillisecond(), t.getNanoOfMillisecond());
    }

}
