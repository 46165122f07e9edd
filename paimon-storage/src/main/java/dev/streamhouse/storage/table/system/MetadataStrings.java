package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimeType;
import dev.streamhouse.storage.types.TimestampType;


import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.StringJoiner;

/**
 * The text forms system tables show, as Apache Paimon 1.3 shows them (checked against its
 * {@code $files}, {@code $partitions} and {@code $manifests} tables over the same warehouse).
 *
 * <ul>
 *   <li>Partitions: each value cast to SQL text, joined as {@code {2024-01-01, 10}}; {@code {}} for an
 *       unpartitioned table; NULL as {@code null}. DATE {@code 2024-01-01}, TIME(p) and TIMESTAMP(p)
 *       with exactly p fraction digits, TIMESTAMP_LTZ in the JVM's time zone.
 *   <li>Keys and statistics: the internal value's text, as in {@code [1, a]} and
 *       {@code {id=1, name=a}}: a DATE is its day number, a TIME its millisecond of the day, a
 *       TIMESTAMP its ISO local date-time ({@code 2023-11-14T22:13:20.123}).
 * </ul>
 */
final class MetadataStrings {
    private MetadataStrings() {}

    /** {@code {v1, v2}}: the partition's values cast to SQL strings. */
    static String partition(InternalRow partition, RowType partitionType) {
        StringJoiner out = new StringJoiner(", ", "{", "}");
        FieldGetter[] getters = InternalRowUtils.fieldGetters(partitionType.fieldTypes());
        for (int i = 0; i < getters.length; i++) {
            out.add(sqlString(getters[i].get(partition), partitionType.typeAt(i)));
        }
        return out.toString();
    }

    /** {@code [v1, v2]}: the internal values of a key row. */
    static String key(InternalRow key, RowType keyType) {
        Object[] values = new Object[keyType.fieldCount()];
        FieldGetter[] getters = InternalRowUtils.fieldGetters(keyType.fieldTypes());
        for (int i = 0; i < values.length; i++) {
            values[i] = internalString(getters[i].get(key));
        }
        return Arrays.toString(values);
    }

    /** The text of an internal value as statistics show it; null stays null. */
    static String internalString(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof byte[]) {
            return Arrays.toString((byte[]) value);
        }
        if (value instanceof Timestamp) {
            return ((Timestamp) value).toLocalDateTime().toString();
        }
        return value.toString();
    }

    /** The value cast to STRING as SQL would (see the class comment); "null" for NULL. */
    static String sqlString(Object value, DataType type) {
        if (value == null) {
            return "null";
        }
        switch (type.root()) {
            case DATE:
                return LocalDate.ofEpochDay((Integer) value).toString();
            case TIME_WITHOUT_TIME_ZONE: {
                LocalTime time = LocalTime.ofNanoOfDay((Integer) value * 1_000_000L);
                return withFraction(String.format("%02d:%02d:%02d", time.getHour(), time.getMinute(), time.getSecond()),
                        time.getNano(), ((TimeType) type).precision());
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestampString(((Timestamp) value).toLocalDateTime(), ((TimestampType) type).precision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                LocalDateTime local = LocalDateTime.ofInstant(((Timestamp) value).toInstant(), ZoneId.systemDefault());
                return timestampString(local, ((TimestampType) type).precision());
            }
            default:
                return internalString(value);
        }
    }

    private static String timestampString(LocalDateTime dt, int precision) {
        String base = dt.toLocalDate() + " "
                + String.format("%02d:%02d:%02d", dt.getHour(), dt.getMinute(), dt.getSecond());
        return withFraction(base, dt.getNano(), precision);
    }

    private static String withFraction(String base, int nanos, int precision) {
        if (precision == 0) {
            return base;
        }
        return base + "." + String.format("%09d", nanos).substring(0, precision);
    }

    /**
     * A path as Paimon prints it: a local URI without authority is {@code file:/dir/file}, not
     * {@code file:///dir/file}.
     */
    static String path(Path path) {
        String text = path.toString();
        return text.startsWith("file:///") ? "file:/" + text.substring("file:///".length()) : text;
    }

    /** A TIMESTAMP(3) value of epoch milliseconds shown in the JVM's time zone (commit and schema times). */
    static Timestamp localTime(long epochMillis) {
        return Timestamp.fromLocalDateTime(
                LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneId.systemDefault()));
    }

    /** A TIMESTAMP(3) value of a wall-clock time stored as if it were UTC (file creation times). */
    static Timestamp wallClockTime(long millis) {
        return Timestamp.fromEpochMillis(millis);
    }
}
