package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.DataGetters;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

/**
 * A 64-bit hash of a key row, read through the typed accessors, so a {@code BinaryRow}, a columnar view
 * and a decoded {@code GenericRow} of the same key hash alike. Keys equal under
 * {@link dev.streamhouse.storage.mergetree.KeyRowComparator} hash equally: floating point values are hashed
 * by their canonical bits ({@link Float#floatToIntBits}, all NaNs alike, as {@code Float.compare} treats
 * them), not by their raw bits. Immutable and thread-safe.
 */
final class KeyHasher {
    private static final long NULL_FIELD = 0x5bd1e9955bd1e995L;

    /** Hashes field {@code pos} of a row, non-null there, into the running hash. */
    @FunctionalInterface
    private interface FieldHasher {
        long hash(long h, DataGetters row, int pos);
    }

    private final FieldHasher[] fields;

    KeyHasher(RowType keyType) {
        this.fields = new FieldHasher[keyType.fieldCount()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = forType(keyType.typeAt(i));
        }
    }

    long hash(InternalRow key) {
        long h = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < fields.length; i++) {
            h = key.isNullAt(i) ? mix(h, NULL_FIELD) : fields[i].hash(h, key, i);
        }
        return finish(h);
    }

    private static FieldHasher forType(DataType type) {
        switch (type.root()) {
            case BOOLEAN:
                return (h, r, p) -> mix(h, r.booleanAt(p) ? 1 : 0);
            case TINYINT:
                return (h, r, p) -> mix(h, r.byteAt(p));
            case SMALLINT:
                return (h, r, p) -> mix(h, r.shortAt(p));
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return (h, r, p) -> mix(h, r.intAt(p));
            case BIGINT:
                return (h, r, p) -> mix(h, r.longAt(p));
            case FLOAT:
                return (h, r, p) -> mix(h, Float.floatToIntBits(r.floatAt(p)));
            case DOUBLE:
                return (h, r, p) -> mix(h, Double.doubleToLongBits(r.doubleAt(p)));
            case CHAR:
            case VARCHAR:
                return (h, r, p) -> {
                    BinaryString s = r.stringAt(p);
                    return bytes(h, s.rawBytes(), s.rawOffset(), s.byteLength());
                };
            case BINARY:
            case VARBINARY:
                return (h, r, p) -> {
                    byte[] b = r.binaryAt(p);
                    return bytes(h, b, 0, b.length);
                };
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                int precision = d.precision();
                int scale = d.scale();
                if (d.isCompact()) {
                    return (h, r, p) -> mix(h, r.decimalAt(p, precision, scale).toUnscaledLong());
                }
                // same scale on both sides: equal decimals have equal (minimal two's-complement) unscaled bytes
                return (h, r, p) -> {
                    byte[] b = r.decimalAt(p, precision, scale).toUnscaledBytes();
                    return bytes(h, b, 0, b.length);
                };
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                int precision = ((TimestampType) type).precision();
                return (h, r, p) -> {
                    Timestamp ts = r.timestampAt(p, precision);
                    return mix(mix(h, ts.millisecond()), ts.nanoOfMillisecond());
                };
            }
            default:
                throw new IllegalArgumentException("Cannot look up keys with a column of type " + type
                        + ": only orderable types can be primary key columns");
        }
    }

    private static long bytes(long h, byte[] b, int offset, int length) {
        long acc = mix(h, length);
        int i = offset;
        int end = offset + length;
        for (; i + 8 <= end; i += 8) {
            long word = 0;
            for (int j = 7; j >= 0; j--) {
                word = (word << 8) | (b[i + j] & 0xFF);
            }
            acc = mix(acc, word);
        }
        long tail = 0;
        for (int j = end - 1; j >= i; j--) {
            tail = (tail << 8) | (b[j] & 0xFF);
        }
        return mix(acc, tail);
    }

    private static long mix(long h, long v) {
        return Long.rotateLeft(h ^ (v * 0xC2B2AE3D27D4EB4FL), 31) * 0x9E3779B97F4A7C15L;
    }

    /** The splitmix64 finalizer: spreads every input bit over the whole word. */
    private static long finish(long h) {
        h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
        h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
        return h ^ (h >>> 31);
    }
}
