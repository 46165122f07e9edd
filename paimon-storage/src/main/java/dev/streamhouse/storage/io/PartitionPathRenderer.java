package dev.streamhouse.storage.io;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Renders a partition's values as the directory path {@code k1=v1/k2=v2/} (docs/format.md §1.3). Readers
 * never parse these names; they compute them, so the rendering must match Apache Paimon's exactly.
 */
public final class PartitionPathRenderer {
    private final RowType partitionType;
    private final FieldGetter[] getters;
    private final String defaultName;
    private final boolean legacyName;

    public PartitionPathRenderer(RowType partitionType, String defaultName, boolean legacyName) {
        this.partitionType = partitionType;
        this.getters = InternalRowUtils.fieldGetters(partitionType.fieldTypes()).clone();
        this.defaultName = defaultName;
        this.legacyName = legacyName;
        for (int i = 0; i < partitionType.fieldCount(); i++) {
            DataType t = partitionType.typeAt(i);
            switch (t.root()) {
                case BINARY:
                case VARBINARY:
                case ARRAY:
                case MAP:
                case MULTISET:
                case ROW:
                case VARIANT:
                    throw new IllegalArgumentException("Cannot use column '" + partitionType.field(i).name()
                            + "' of type " + t + " as a partition key: its values have no stable directory name");
                default:
                    break;
            }
        }
    }

    /** The relative directory of a partition, ending with '/'; empty for an unpartitioned table. */
    public String render(BinaryRow partition) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : values(partition).entrySet()) {
            sb.append(escape(e.getKey())).append('=').append(escape(e.getValue())).append('/');
        }
        return sb.toString();
    }

    /**
     * Where a file of {@code partition} and {@code bucket} belongs, as error messages say it:
     * {@code partition dt=2026-12-01, hh=10, bucket 0}, or {@code bucket 0} for an unpartitioned table.
     */
    public String describe(BinaryRow partition, int bucket) {
        if (getters.length == 0) {
            return "bucket " + bucket;
        }
        StringBuilder sb = new StringBuilder("partition ");
        for (Map.Entry<String, String> e : values(partition).entrySet()) {
            sb.append(e.getKey()).append('=').append(e.getValue()).append(", ");
        }
        return sb.append("bucket ").append(bucket).toString();
    }

    /** The partition's values as strings, in partition-key order, with the default name for null/blank. */
    public LinkedHashMap<String, String> values(BinaryRow partition) {
        LinkedHashMap<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < getters.length; i++) {
            Object v = getters[i].get(partition);
            String s = v == null ? null : (legacyName ? legacyString(v) : sqlString(v, partitionType.typeAt(i)));
            if (s == null || s.isBlank()) {
                s = defaultName;
            }
            out.put(partitionType.field(i).name(), s);
        }
        return out;
    }

    /** Java {@code toString()} of the internal value (DATE as its day number, TIMESTAMP ISO). */
    private static String legacyString(Object v) {
        if (v instanceof Timestamp) {
            return ((Timestamp) v).toLocalDateTime().toString();
        }
        if (v instanceof Decimal) {
            return ((Decimal) v).toBigDecimal().toPlainString();
        }
        return v.toString();
    }

    /** The SQL cast of the value to STRING. */
    private static String sqlString(Object v, DataType type) {
        switch (type.root()) {
            case DATE:
                return LocalDate.ofEpochDay((Integer) v).toString();
            case TIME_WITHOUT_TIME_ZONE:
                return LocalTime.ofNanoOfDay((Integer) v * 1_000_000L).toString();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return formatTimestamp((Timestamp) v, ((TimestampType) type).precision());
            default:
                return legacyString(v);
        }
    }

    private static String formatTimestamp(Timestamp ts, int precision) {
        java.time.LocalDateTime dt = ts.toLocalDateTime();
        String base = dt.toLocalDate() + " " + String.format("%02d:%02d:%02d", dt.getHour(), dt.getMinute(), dt.getSecond());
        if (precision == 0) {
            return base;
        }
        String nanos = String.format("%09d", dt.getNano());
        return base + "." + nanos.substring(0, precision);
    }

    /** Escapes control characters and {@code " # % ' * / : = ? \ DEL { } [ ] ^} as {@code %XX}. */
    public static String escape(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (needsEscape(c)) {
                if (sb == null) {
                    sb = new StringBuilder(s.length() + 8).append(s, 0, i);
                }
                sb.append('%').append(String.format("%02X", (int) c));
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? s : sb.toString();
    }

    private static boolean needsEscape(char c) {
        if (c < 0x20 || c == 0x7F) {
            return true;
        }
        switch (c) {
            case '"':
            case '#':
            case '%':
            case '\'':
            case '*':
            case '/':
            case ':':
            case '=':
            case '?':
            case '\\':
            case '{':
            case '}':
            case '[':
            case ']':
            case '^':
                return true;
            default:
                return false;
        }
    }

    /** Names of the partition keys. */
    public List<String> keys() {
        return new ArrayList<>(partitionType.fieldNames());
    }
}
