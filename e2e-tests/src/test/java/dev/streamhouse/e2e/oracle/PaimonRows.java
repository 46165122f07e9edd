package dev.streamhouse.e2e.oracle;

import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Converts between Apache Paimon's internal rows ({@code org.apache.paimon.data}) and
 * {@link CanonicalRow}s. Paimon's internal values: BinaryString, Decimal, Timestamp, int days (DATE),
 * int millis of day (TIME), byte[], InternalArray, InternalMap (also for MULTISET: element to INT
 * count), InternalRow.
 *
 * <p>Paimon 1.3.1 behaviour seen through this conversion (Parquet, verified in tests or probes):
 *
 * <ul>
 *   <li>CHAR(n) values come back exactly as written, not padded ('ab' in CHAR(5) reads 'ab');
 *       trailing spaces are kept.
 *   <li>Timestamps are cut to their storage unit, not to the declared precision: TIMESTAMP(0..3)
 *       and TIMESTAMP_LTZ(0..3) keep milliseconds (a TIMESTAMP(0) keeps .123), (4..6) keep
 *       microseconds, (7..9) keep nanoseconds (TIMESTAMP(9) round-trips exactly).
 *   <li>TIME(p) keeps milliseconds whatever p is (TIME(0) keeps .456).
 *   <li>Primary-key reads return the surviving record with its own kind: a key last written as +U
 *       reads as +U (compare with {@link Canon#assertSameRowsIgnoringKind} if that does not matter).
 * </ul>
 */
public final class PaimonRows {
    private PaimonRows() {}

    /** A canonical copy of {@code row} (safe to keep after a reader reuses {@code row}). */
    public static CanonicalRow toCanonical(InternalRow row, RowType type) {
        List<Object> values = new ArrayList<>(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            DataType t = type.getTypeAt(i);
            values.add(toCanonicalValue(InternalRow.createFieldGetter(t, i).getFieldOrNull(row), t));
        }
        return CanonicalRow.ofKind(fromPaimonKind(row.getRowKind()), values);
    }

    /** The canonical form of one Paimon internal value of {@code type} (null stays null). */
    public static Object toCanonicalValue(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case FLOAT:
            case DOUBLE:
                return v;
            case CHAR:
            case VARCHAR:
                return v.toString();
            case BINARY:
            case VARBINARY:
                return Canon.hex((byte[]) v);
            case DECIMAL:
                return ((Decimal) v).toBigDecimal().setScale(((DecimalType) type).getScale(), RoundingMode.UNNECESSARY);
            case DATE:
                return LocalDate.ofEpochDay((Integer) v);
            case TIME_WITHOUT_TIME_ZONE:
                return LocalTime.ofNanoOfDay((Integer) v * 1_000_000L);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return ((Timestamp) v).toLocalDateTime();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((Timestamp) v).toInstant();
            case ARRAY: {
                InternalArray a = (InternalArray) v;
                DataType et = ((ArrayType) type).getElementType();
                InternalArray.ElementGetter getter = InternalArray.createElementGetter(et);
                List<Object> out = new ArrayList<>(a.size());
                for (int i = 0; i < a.size(); i++) {
                    out.add(toCanonicalValue(getter.getElementOrNull(a, i), et));
                }
                return out;
            }
            case MULTISET:
                return mapToCanonical((InternalMap) v, ((MultisetType) type).getElementType(),
                        org.apache.paimon.types.DataTypes.INT().notNull());
            case MAP:
                return mapToCanonical((InternalMap) v, ((MapType) type).getKeyType(), ((MapType) type).getValueType());
            case ROW: {
                RowType rt = (RowType) type;
                return new ArrayList<>(toCanonical((InternalRow) v, rt).values());
            }
            default:
                throw new IllegalArgumentException("Cannot convert a value of type " + type + " to canonical form");
        }
    }

    private static Map<Object, Object> mapToCanonical(InternalMap m, DataType keyType, DataType valueType) {
        InternalArray keys = m.keyArray();
        InternalArray values = m.valueArray();
        InternalArray.ElementGetter kg = InternalArray.createElementGetter(keyType);
        InternalArray.ElementGetter vg = InternalArray.createElementGetter(valueType);
        Map<Object, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < m.size(); i++) {
            out.put(toCanonicalValue(kg.getElementOrNull(keys, i), keyType),
                    toCanonicalValue(vg.getElementOrNull(values, i), valueType));
        }
        return Canon.sortedMap(out);
    }

    /** A Paimon {@link GenericRow} holding the internal values of a canonical row of {@code type}. */
    public static GenericRow toPaimon(CanonicalRow row, RowType type) {
        if (row.arity() != type.getFieldCount()) {
            throw new IllegalArgumentException("Cannot convert " + row + ": it has " + row.arity()
                    + " values but the row type has " + type.getFieldCount() + " fields: " + type);
        }
        GenericRow out = new GenericRow(toPaimonKind(row.kind()), row.arity());
        for (int i = 0; i < row.arity(); i++) {
            out.setField(i, toPaimonValue(row.get(i), type.getTypeAt(i)));
        }
        return out;
    }

    /**
     * The Paimon internal value of a canonical value. Lenient on input: any Number for numeric types,
     * byte[] or hex string for binary, BigDecimal of any fitting scale, List or Map for nested types.
     */
    public static Object toPaimonValue(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return (Boolean) v;
            case TINYINT:
                return ((Number) v).byteValue();
            case SMALLINT:
                return ((Number) v).shortValue();
            case INTEGER:
                return ((Number) v).intValue();
            case BIGINT:
                return ((Number) v).longValue();
            case FLOAT:
                return ((Number) v).floatValue();
            case DOUBLE:
                return ((Number) v).doubleValue();
            case CHAR:
            case VARCHAR:
                return BinaryString.fromString((String) v);
            case BINARY:
            case VARBINARY:
                return v instanceof byte[] ? v : Canon.unhex((String) v);
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                BigDecimal bd = v instanceof BigDecimal ? (BigDecimal) v : new BigDecimal(v.toString());
                Decimal out = Decimal.fromBigDecimal(bd, d.getPrecision(), d.getScale());
                if (out == null) {
                    throw new IllegalArgumentException("Cannot store " + bd + " as " + type + ": it does not fit");
                }
                return out;
            }
            case DATE:
                return (int) ((LocalDate) v).toEpochDay();
            case TIME_WITHOUT_TIME_ZONE:
                return (int) (((LocalTime) v).toNanoOfDay() / 1_000_000L);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return Timestamp.fromLocalDateTime((LocalDateTime) v);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Timestamp.fromInstant((Instant) v);
            case ARRAY: {
                DataType et = ((ArrayType) type).getElementType();
                return new GenericArray(((List<?>) v).stream().map(e -> toPaimonValue(e, et)).toArray());
            }
            case MULTISET: {
                DataType et = ((MultisetType) type).getElementType();
                Map<Object, Object> out = new LinkedHashMap<>();
                ((Map<?, ?>) v).forEach((e, n) -> out.put(toPaimonValue(e, et), ((Number) n).intValue()));
                return new GenericMap(out);
            }
            case MAP: {
                MapType mt = (MapType) type;
                Map<Object, Object> out = new LinkedHashMap<>();
                ((Map<?, ?>) v).forEach((k, val) ->
                        out.put(toPaimonValue(k, mt.getKeyType()), toPaimonValue(val, mt.getValueType())));
                return new GenericMap(out);
            }
            case ROW: {
                RowType rt = (RowType) type;
                List<?> fields = (List<?>) v;
                GenericRow out = new GenericRow(rt.getFieldCount());
                for (int i = 0; i < rt.getFieldCount(); i++) {
                    out.setField(i, toPaimonValue(fields.get(i), rt.getTypeAt(i)));
                }
                return out;
            }
            default:
                throw new IllegalArgumentException("Cannot convert " + v + " to a Paimon value of type " + type);
        }
    }

    /**
     * Brings loosely typed values into canonical form (e.g. Integer 1 in a BIGINT column becomes 1L,
     * a DECIMAL gets the column's scale) by a round trip through Paimon's internal values.
     */
    public static CanonicalRow normalize(CanonicalRow row, RowType type) {
        return toCanonical(toPaimon(row, type), type);
    }

    public static List<CanonicalRow> normalize(Collection<CanonicalRow> rows, RowType type) {
        return rows.stream().map(r -> normalize(r, type)).collect(Collectors.toList());
    }

    public static RowKind toPaimonKind(CanonicalRow.Kind kind) {
        return RowKind.fromShortString(kind.shortString());
    }

    public static CanonicalRow.Kind fromPaimonKind(RowKind kind) {
        return CanonicalRow.Kind.fromShortString(kind.shortString());
    }
}
