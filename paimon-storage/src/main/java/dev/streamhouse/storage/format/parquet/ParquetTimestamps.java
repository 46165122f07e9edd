package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.Timestamp;

import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Timestamp encodings of Parquet data files: INT64 with a unit, and INT96 for precision 7..9
 * (8-byte little-endian nanos of day, then 4-byte little-endian Julian day).
 */
final class ParquetTimestamps {
    static final int INT96_LENGTH = 12;
    private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private ParquetTimestamps() {}

    /**
     * Writes {@code ts} as INT96 into {@code target[0..12)}. Day and nanos are split with truncating
     * division, so instants before 1970 get a negative nanos-of-day; that is what Paimon 1.3 writes,
     * and {@link #fromInt96} reads both forms.
     */
    static void toInt96(Timestamp ts, byte[] target) {
        long millis = ts.millisecond();
        long julianDay = millis / MILLIS_PER_DAY + JULIAN_DAY_OF_EPOCH;
        long nanosOfDay = (millis % MILLIS_PER_DAY) * NANOS_PER_MILLI + ts.nanoOfMillisecond();
        for (int i = 0; i < 8; i++) {
            target[i] = (byte) (nanosOfDay >>> (8 * i));
        }
        for (int i = 0; i < 4; i++) {
            target[8 + i] = (byte) (julianDay >>> (8 * i));
        }
    }

    /** Reads an INT96 timestamp from {@code bytes[offset..offset+12)}. */
    static Timestamp fromInt96(byte[] bytes, int offset) {
        long nanosOfDay = 0;
        for (int i = 7; i >= 0; i--) {
            nanosOfDay = (nanosOfDay << 8) | (bytes[offset + i] & 0xFF);
        }
        int julianDay = 0;
        for (int i = 3; i >= 0; i--) {
            julianDay = (julianDay << 8) | (bytes[offset + 8 + i] & 0xFF);
        }
        long millis = (julianDay - JULIAN_DAY_OF_EPOCH) * MILLIS_PER_DAY + Math.floorDiv(nanosOfDay, NANOS_PER_MILLI);
        return Timestamp.fromEpochMillis(millis, (int) Math.floorMod(nanosOfDay, NANOS_PER_MILLI));
    }

    /**
     * The unit of an INT64 timestamp column; a column without a timestamp annotation is taken as
     * millis for read precision up to 3 and micros otherwise.
     */
    static TimeUnit int64Unit(PrimitiveType type, int readPrecision) {
        LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
        if (annotation instanceof TimestampLogicalTypeAnnotation) {
            return ((TimestampLogicalTypeAnnotation) annotation).getUnit();
        }
        return readPrecision <= 3 ? TimeUnit.MILLIS : TimeUnit.MICROS;
    }

    /** An INT64 timestamp value of the given unit as an internal timestamp. */
    static Timestamp fromInt64(long value, TimeUnit unit) {
        switch (unit) {
            case MILLIS:
                return Timestamp.fromEpochMillis(value);
            case MICROS:
                return Timestamp.fromMicros(value);
            case NANOS:
                return Timestamp.fromEpochMillis(
                        Math.floorDiv(value, NANOS_PER_MILLI), (int) Math.floorMod(value, NANOS_PER_MILLI));
            default:
                throw new IllegalArgumentException("Unknown timestamp unit " + unit);
        }
    }
}
