package dev.streamhouse.e2e.aggregate;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Random;

import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.theta.UpdateSketch;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64Bitmap;

/**
 * Seeded random internal values (ours) of a type, from small domains so that values repeat (ties,
 * duplicates, colliding keys) and with the edge values that differ between implementations (integer
 * limits, NaN, -0.0, decimals at their precision).
 */
final class RandomInputs {
    private static final String[] WORDS = {"", "a", "b", "ab", "abcd", "abcde", "é", "日本", "zz"};

    private final Random random;

    RandomInputs(Random random) {
        this.random = random;
    }

    /** A value of {@code type}, null with probability 1/8. */
    Object value(DataType type) {
        if (random.nextInt(8) == 0) {
            return null;
        }
        switch (type.root()) {
            case BOOLEAN:
                return random.nextBoolean();
            case TINYINT:
                return (byte) pick(-3, 0, 1, 2, 5, 100, Byte.MAX_VALUE, Byte.MIN_VALUE);
            case SMALLINT:
                return (short) pick(-7, 0, 1, 3, 300, Short.MAX_VALUE, Short.MIN_VALUE);
            case INTEGER:
            case DATE:
                return pick(-5, 0, 1, 2, 3, 17, 20, 1000, Integer.MAX_VALUE, Integer.MIN_VALUE);
            case TIME_WITHOUT_TIME_ZONE:
                return pick(0, 1, 1000, 86_399_999);
            case BIGINT:
                return (long) pick(-2, 0, 1, 3, 1 << 20) * (random.nextInt(4) == 0 ? Long.MAX_VALUE / 3 : 1);
            case FLOAT:
                return new float[] {-1.5f, 0f, -0f, 0.25f, 2f, Float.NaN, Float.POSITIVE_INFINITY, 3e38f}[
                        random.nextInt(8)];
            case DOUBLE:
                return new double[] {-1.5, 0.0, -0.0, 0.1, 2.0, Double.NaN, Double.NEGATIVE_INFINITY, 1e308}[
                        random.nextInt(8)];
            case DECIMAL:
                return decimal((DecimalType) type);
            case CHAR:
            case VARCHAR:
                return BinaryString.fromString(WORDS[random.nextInt(WORDS.length)]);
            case BINARY:
            case VARBINARY: {
                byte[] b = new byte[random.nextInt(4)];
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) pick(0, 1, 0x7f, 0x80, 0xff);
                }
                return b;
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Timestamp.fromEpochMillis(pick(-1000, 0, 5, 1_700_000_000) * 1000L + pick(0, 7),
                        pick(0, 1, 999_999)).truncate(((TimestampType) type).precision());
            case ARRAY: {
                DataType et = ((ArrayType) type).elementType();
                Object[] elements = new Object[random.nextInt(5)];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = value(et);
                }
                return new GenericArray(elements);
            }
            case MAP: {
                MapType mt = (MapType) type;
                Map<Object, Object> entries = new LinkedHashMap<>();
                int n = random.nextInt(5);
                for (int i = 0; i < n; i++) {
                    Object key = value(mt.keyType());
                    if (entries.keySet().stream().noneMatch(k -> sameKey(k, key))) {
                        entries.put(key, value(mt.valueType()));
                    }
                }
                return new GenericMap(entries);
            }
            case ROW: {
                RowType rt = (RowType) type;
                Object[] fields = new Object[rt.fieldCount()];
                for (int i = 0; i < fields.length; i++) {
                    fields[i] = value(rt.typeAt(i));
                }
                return GenericRow.of(fields);
            }
            default:
                throw new IllegalArgumentException("No random values of type " + type);
        }
    }

    /** Keys as Paimon would find them equal when a map is built (binaries by content here, to keep maps valid). */
    private static boolean sameKey(Object a, Object b) {
        if (a instanceof byte[] && b instanceof byte[]) {
            return java.util.Arrays.equals((byte[]) a, (byte[]) b);
        }
        return Objects.equals(a, b);
    }

    private Decimal decimal(DecimalType type) {
        BigInteger max = BigInteger.TEN.pow(type.precision()).subtract(BigInteger.ONE);
        BigInteger unscaled;
        switch (random.nextInt(4)) {
            case 0:
                unscaled = max;
                break;
            case 1:
                unscaled = max.negate();
                break;
            default:
                unscaled = BigInteger.valueOf(pick(-250, -1, 0, 1, 2, 5, 125));
        }
        return Decimal.fromBigDecimal(new BigDecimal(unscaled, type.scale()), type.precision(), type.scale());
    }

    /** A serialized 32-bit roaring bitmap, not run-optimized, sometimes with runs. */
    byte[] rbm32() {
        RoaringBitmap bitmap = new RoaringBitmap();
        int n = random.nextInt(6);
        for (int i = 0; i < n; i++) {
            bitmap.add(pick(0, 1, 7, 65_536, 1 << 20, -1, Integer.MIN_VALUE) + random.nextInt(3));
        }
        if (random.nextBoolean()) {
            int from = random.nextInt(100_000);
            bitmap.add((long) from, from + 1L + random.nextInt(5000));
        }
        ByteBuffer out = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
        bitmap.serialize(out);
        return out.array();
    }

    /** A serialized 64-bit roaring bitmap ({@link Roaring64Bitmap}), sometimes run-optimized. */
    byte[] rbm64() {
        Roaring64Bitmap bitmap = new Roaring64Bitmap();
        int n = random.nextInt(6);
        for (int i = 0; i < n; i++) {
            bitmap.add(new long[] {0L, 1L, 1L << 32, 1L << 40, -1L, Long.MIN_VALUE}[random.nextInt(6)] + random.nextInt(3));
        }
        if (random.nextBoolean()) {
            long from = (1L << 33) + random.nextInt(100_000);
            bitmap.addRange(from, from + 1 + random.nextInt(5000));
        }
        if (random.nextBoolean()) {
            bitmap.runOptimize();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            bitmap.serialize(new DataOutputStream(out));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A serialized HLL sketch of a random lgK (4..12) and type, compact or updatable, empty to dense. */
    byte[] hll() {
        HllSketch sketch = new HllSketch(4 + random.nextInt(9), TgtHllType.values()[random.nextInt(3)]);
        int n = pick(0, 1, 5, 100, 3000);
        int base = random.nextInt(2000);
        for (int i = 0; i < n; i++) {
            sketch.update(base + i);
        }
        return random.nextBoolean() ? sketch.toCompactByteArray() : sketch.toUpdatableByteArray();
    }

    /** A serialized theta sketch of random nominal entries, compact (ordered or not) or updatable. */
    byte[] theta() {
        UpdateSketch sketch = UpdateSketch.builder().setNominalEntries(pick(16, 512, 4096, 8192)).build();
        int n = pick(0, 1, 10, 1000, 20_000);
        int base = random.nextInt(5000);
        for (int i = 0; i < n; i++) {
            sketch.update(base + i);
        }
        switch (random.nextInt(3)) {
            case 0:
                return sketch.compact(true, null).toByteArray();
            case 1:
                return sketch.compact(false, null).toByteArray();
            default:
                return sketch.toByteArray();
        }
    }

    /** True with probability 1/n. */
    boolean oneIn(int n) {
        return random.nextInt(n) == 0;
    }

    private int pick(int... choices) {
        return choices[random.nextInt(choices.length)];
    }
}
