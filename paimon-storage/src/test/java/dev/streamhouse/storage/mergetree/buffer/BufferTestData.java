package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/** Random keys and values, a last-wins model of the write buffer, and canonical forms for comparing rows. */
final class BufferTestData {
    private static final String[] STRING_PARTS = {"", "a", "ab", "user_00", "user_01", "é", "ü", "中文", "😀", "\u0000", "z"};

    private BufferTestData() {}

    /** One input record. */
    record Put(long seq, RowKind kind, GenericRow key, GenericRow value) {}

    /** A random non-null value of an orderable type; {@code cardinality} bounds the distinct values. */
    static Object randomAtomic(DataType type, Random r, int cardinality) {
        int n = r.nextInt(Math.max(1, cardinality));
        switch (type.root()) {
            case BOOLEAN:
                return n % 2 == 0;
            case TINYINT:
                return (byte) (n - cardinality / 2);
            case SMALLINT:
                return (short) (r.nextBoolean() ? n : -n * 131);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return r.nextInt(8) == 0 ? pick(r, Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1) : (n - cardinality / 2) * 7919;
            case BIGINT:
                return r.nextInt(8) == 0
                        ? pick(r, Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L)
                        : (long) (n - cardinality / 2) * 1_000_000_007L;
            case FLOAT:
                return r.nextInt(8) == 0 ? pick(r, -0.0f, 0.0f, Float.NaN, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY)
                        : (n - cardinality / 2) / 3.0f;
            case DOUBLE:
                return r.nextInt(8) == 0 ? pick(r, -0.0d, 0.0d, Double.NaN, Double.NEGATIVE_INFINITY, Double.MIN_VALUE)
                        : (n - cardinality / 2) / 7.0d;
            case CHAR:
            case VARCHAR:
                return BinaryString.fromString(randomString(r, n));
            case BINARY:
            case VARBINARY: {
                byte[] b = new byte[n % 11];
                new Random(n).nextBytes(b);
                return b;
            }
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                BigInteger unscaled = BigInteger.valueOf(n - cardinality / 2).multiply(BigInteger.TEN.pow(d.precision() / 2));
                return Decimal.fromBigDecimal(new BigDecimal(unscaled, d.scale()), d.precision(), d.scale());
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                int precision = ((TimestampType) type).precision();
                Timestamp ts = Timestamp.fromEpochMillis((n / 3 - cardinality / 6) * 86_400_123L, (n % 3) * 333_333);
                return ts.truncate(precision);
            }
            default:
                throw new IllegalArgumentException("no random values for " + type);
        }
    }

    @SafeVarargs
    private static <T> T pick(Random r, T... values) {
        return values[r.nextInt(values.length)];
    }

    /** Strings sharing long prefixes, with multi-byte characters and embedded NULs. */
    static String randomString(Random r, int n) {
        Random local = new Random(n);
        StringBuilder sb = new StringBuilder();
        int parts = local.nextInt(4);
        for (int i = 0; i < parts; i++) {
            sb.append(STRING_PARTS[local.nextInt(STRING_PARTS.length)]);
        }
        return sb.append(n % 97).toString();
    }

    static GenericRow randomKey(RowType keyType, Random r, int cardinality) {
        GenericRow key = new GenericRow(keyType.fieldCount());
        for (int i = 0; i < keyType.fieldCount(); i++) {
            key.setField(i, randomAtomic(keyType.typeAt(i), r, cardinality));
        }
        return key;
    }

    /** Random puts with ascending sequence numbers; about one in five is a retraction. */
    static List<Put> randomPuts(RowType keyType, Random r, int count, int cardinality) {
        List<Put> puts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            RowKind kind = RowKind.values()[r.nextInt(5) == 0 ? 1 + 2 * r.nextInt(2) : 2 * r.nextInt(2)];
            GenericRow key = randomKey(keyType, r, cardinality);
            GenericRow value = GenericRow.of(
                    (long) i, BinaryString.fromString("v" + i + "-" + randomString(r, r.nextInt(1000))), r.nextInt());
            puts.add(new Put(1000L + i, kind, key, value));
        }
        return puts;
    }

    /** The value row type of {@link #randomPuts}. */
    static RowType valueType() {
        return RowType.of(DataTypes.BIGINT(), DataTypes.STRING(), DataTypes.INT());
    }

    /** Last-wins per key, sorted by {@link KeyComparator}: canonical forms of the expected output. */
    static List<List<Object>> lastWinsModel(RowType keyType, List<Put> puts) {
        TreeMap<InternalRow, Put> latest = new TreeMap<>(new KeyComparator(keyType));
        for (Put p : puts) {
            Put old = latest.get(p.key());
            if (old == null || old.seq() < p.seq()) {
                latest.put(p.key(), p);
            }
        }
        List<List<Object>> out = new ArrayList<>();
        for (Put p : latest.values()) {
            out.add(List.of(canonical(p.key()), p.seq(), p.kind(), canonical(p.value())));
        }
        return out;
    }

    static List<List<Object>> canonical(List<KeyValue> kvs) {
        List<List<Object>> out = new ArrayList<>();
        for (KeyValue kv : kvs) {
            out.add(List.of(canonical(kv.key()), kv.sequenceNumber(), kv.valueKind(), canonical(kv.value())));
        }
        return out;
    }

    static void putAll(WriteBuffer buffer, List<Put> puts) throws IOException {
        for (Put p : puts) {
            if (!buffer.put(p.seq(), p.kind(), p.key(), p.value())) {
                throw new AssertionError("put returned false for " + p);
            }
        }
    }

    static List<KeyValue> drain(WriteBuffer buffer, MergeFunction mf) throws IOException {
        List<KeyValue> out = new ArrayList<>();
        buffer.forEachMerged(mf, out::add);
        return out;
    }

    /**
     * A structural, order-sensitive form of an internal value in which equal content compares equal:
     * byte arrays become hex, arrays lists, maps lists of entries, rows lists of fields (row kind ignored).
     */
    static Object canonical(Object value) {
        if (value == null) {
            return "<null>";
        } else if (value instanceof byte[]) {
            return "0x" + HexFormat.of().formatHex((byte[]) value);
        } else if (value instanceof GenericRow) {
            GenericRow row = (GenericRow) value;
            List<Object> fields = new ArrayList<>();
            for (int i = 0; i < row.arity(); i++) {
                fields.add(canonical(row.field(i)));
            }
            return fields;
        } else if (value instanceof GenericArray) {
            List<Object> elements = new ArrayList<>();
            for (Object e : ((GenericArray) value).toObjectArray()) {
                elements.add(canonical(e));
            }
            return elements;
        } else if (value instanceof GenericMap) {
            List<Object> entries = new ArrayList<>();
            for (Map.Entry<Object, Object> e : ((GenericMap) value).toJavaMap().entrySet()) {
                entries.add(Arrays.asList(canonical(e.getKey()), canonical(e.getValue())));
            }
            return entries;
        } else if (value instanceof Decimal) {
            Decimal d = (Decimal) value;
            return "DEC(" + d.precision() + "," + d.scale() + ")" + d.toBigDecimal().toPlainString();
        } else if (value instanceof Timestamp) {
            Timestamp t = (Timestamp) value;
            return "TS" + t.millisecond() + "+" + t.nanoOfMillisecond();
        } else if (value instanceof Float || value instanceof Double) {
            return value.getClass().getSimpleName() + value;
        }
        return value.getClass().getSimpleName() + ":" + value;
    }
}
