package dev.streamhouse.e2e.oracle;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.BinaryType;
import dev.streamhouse.storage.types.CharType;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.PlainType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimeType;
import dev.streamhouse.storage.types.TimestampType;
import dev.streamhouse.storage.types.VarBinaryType;
import dev.streamhouse.storage.types.VarCharType;

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
 * Converts between our storage's rows ({@code dev.streamhouse.storage.data}) and
 * {@link CanonicalRow}s, and builds our {@link RowType} from a {@link TableSpec}.
 *
 * <p>Our internal values: BinaryString, Decimal, Timestamp, int days (DATE), int millis of day
 * (TIME), byte[], InternalArray, InternalMap, InternalRow.
 *
 * <p>A MULTISET is an InternalMap from element to its INT count, as in Paimon.
 */
public final class OurRows {
    private OurRows() {}

    // ---- types ---------------------------------------------------------------------------------

    /**
     * Our row type for a table spec, with field ids assigned by our {@code DataTypes.assignNestedIds}
     * (which must equal Paimon's; the oracle self-test checks that). Primary key columns are NOT NULL.
     */
    public static RowType rowType(TableSpec spec) {
        List<DataField> fields = new ArrayList<>();
        int[] nextId = {0};
        for (TableSpec.Column c : spec.columns()) {
            int id = nextId[0]++;
            DataType t = DataTypes.assignNestedIds(toOurType(c.paimonType()), nextId);
            if (spec.primaryKeys().contains(c.name())) {
                t = t.notNull();
            }
            fields.add(new DataField(id, c.name(), t));
        }
        return new RowType(fields);
    }

    /** Our type for a neutral type string (see {@link TypeStrings}). */
    public static DataType parseType(String typeString) {
        return toOurType(TypeStrings.parse(typeString));
    }

    /** The same type in our type system (field ids of nested rows are kept). */
    public static DataType toOurType(org.apache.paimon.types.DataType t) {
        boolean n = t.isNullable();
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return new PlainType(n, DataTypeRoot.BOOLEAN);
            case TINYINT:
                return new PlainType(n, DataTypeRoot.TINYINT);
            case SMALLINT:
                return new PlainType(n, DataTypeRoot.SMALLINT);
            case INTEGER:
                return new PlainType(n, DataTypeRoot.INTEGER);
            case BIGINT:
                return new PlainType(n, DataTypeRoot.BIGINT);
            case FLOAT:
                return new PlainType(n, DataTypeRoot.FLOAT);
            case DOUBLE:
                return new PlainType(n, DataTypeRoot.DOUBLE);
            case DATE:
                return new PlainType(n, DataTypeRoot.DATE);
            case VARIANT:
                return new PlainType(n, DataTypeRoot.VARIANT);
            case CHAR:
                return new CharType(n, ((org.apache.paimon.types.CharType) t).getLength());
            case VARCHAR:
                return new VarCharType(n, ((org.apache.paimon.types.VarCharType) t).getLength());
            case BINARY:
                return new BinaryType(n, ((org.apache.paimon.types.BinaryType) t).getLength());
            case VARBINARY:
                return new VarBinaryType(n, ((org.apache.paimon.types.VarBinaryType) t).getLength());
            case DECIMAL: {
                org.apache.paimon.types.DecimalType d = (org.apache.paimon.types.DecimalType) t;
                return new DecimalType(n, d.getPrecision(), d.getScale());
            }
            case TIME_WITHOUT_TIME_ZONE:
                return new TimeType(n, ((org.apache.paimon.types.TimeType) t).getPrecision());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new TimestampType(n, ((org.apache.paimon.types.TimestampType) t).getPrecision(), false);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new TimestampType(n, ((org.apache.paimon.types.LocalZonedTimestampType) t).getPrecision(), true);
            case ARRAY:
                return ArrayType.array(n, toOurType(((org.apache.paimon.types.ArrayType) t).getElementType()));
            case MULTISET:
                return ArrayType.multiset(n, toOurType(((org.apache.paimon.types.MultisetType) t).getElementType()));
            case MAP: {
                org.apache.paimon.types.MapType m = (org.apache.paimon.types.MapType) t;
                return new MapType(n, toOurType(m.getKeyType()), toOurType(m.getValueType()));
            }
            case ROW: {
                List<DataField> fields = new ArrayList<>();
                for (org.apache.paimon.types.DataField f : ((org.apache.paimon.types.RowType) t).getFields()) {
                    fields.add(new DataField(f.id(), f.name(), toOurType(f.type()), f.description(), f.defaultValue()));
                }
                return new RowType(n, fields);
            }
            default:
                throw new IllegalArgumentException("Cannot map Paimon type " + t + " to our type system");
        }
    }

    // ---- rows: ours -> canonical ---------------------------------------------------------------

    /** A canonical copy of {@code row} (safe to keep after a reader reuses {@code row}). */
    public static CanonicalRow toCanonical(InternalRow row, RowType type) {
        List<Object> values = new ArrayList<>(type.fieldCount());
        for (int i = 0; i < type.fieldCount(); i++) {
            DataType t = type.typeAt(i);
            Object internal = InternalRowUtils.fieldGetter(t, i).get(row);
            values.add(toCanonicalValue(internal, t));
        }
        return CanonicalRow.ofKind(fromOurKind(row.rowKind()), values);
    }

    public static List<CanonicalRow> toCanonical(Collection<? extends InternalRow> rows, RowType type) {
        return rows.stream().map(r -> toCanonical(r, type)).collect(Collectors.toList());
    }

    /** The canonical form of one of our internal values of {@code type} (null stays null). */
    public static Object toCanonicalValue(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        switch (type.root()) {
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
                return ((Decimal) v).toBigDecimal().setScale(((DecimalType) type).scale(), RoundingMode.UNNECESSARY);
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
                DataType et = ((ArrayType) type).elementType();
                List<Object> out = new ArrayList<>(a.size());
                for (int i = 0; i < a.size(); i++) {
                    out.add(toCanonicalValue(element(a, i, et), et));
                }
                return out;
            }
            case MULTISET:
                return multisetToCanonical(v, ((ArrayType) type).elementType());
            case MAP: {
                MapType mt = (MapType) type;
                InternalMap m = (InternalMap) v;
                InternalArray keys = m.keyArray();
                InternalArray values = m.valueArray();
                Map<Object, Object> out = new LinkedHashMap<>();
                for (int i = 0; i < m.size(); i++) {
                    out.put(toCanonicalValue(element(keys, i, mt.keyType()), mt.keyType()),
                            toCanonicalValue(element(values, i, mt.valueType()), mt.valueType()));
                }
                return Canon.sortedMap(out);
            }
            case ROW:
                return new ArrayList<>(toCanonical((InternalRow) v, (RowType) type).values());
            default:
                throw new IllegalArgumentException("Cannot convert a value of type " + type + " to canonical form");
        }
    }

    private static Object element(InternalArray a, int pos, DataType et) {
        return InternalRowUtils.arrayElement(a, pos, et);
    }

    private static Map<Object, Object> multisetToCanonical(Object v, DataType et) {
        Map<Object, Object> out = new LinkedHashMap<>();
        InternalMap m = (InternalMap) v;
        for (int i = 0; i < m.size(); i++) {
            out.put(toCanonicalValue(element(m.keyArray(), i, et), et), m.valueArray().intAt(i));
        }
        return Canon.sortedMap(out);
    }

    // ---- rows: canonical -> ours ---------------------------------------------------------------

    /** Our {@link GenericRow} holding the internal values of a canonical row of {@code type}. */
    public static GenericRow toOurs(CanonicalRow row, RowType type) {
        if (row.arity() != type.fieldCount()) {
            throw new IllegalArgumentException("Cannot convert " + row + ": it has " + row.arity()
                    + " values but the row type has " + type.fieldCount() + " fields: " + type);
        }
        Object[] values = new Object[row.arity()];
        for (int i = 0; i < values.length; i++) {
            values[i] = toOurValue(row.get(i), type.typeAt(i));
        }
        return GenericRow.ofKind(toOurKind(row.kind()), values);
    }

    public static List<GenericRow> toOurs(Collection<CanonicalRow> rows, RowType type) {
        return rows.stream().map(r -> toOurs(r, type)).collect(Collectors.toList());
    }

    /**
     * Our internal value of a canonical value. Lenient on input like
     * {@link PaimonRows#toPaimonValue}; a DECIMAL that would need rounding is rejected.
     */
    public static Object toOurValue(Object v, DataType type) {
        if (v == null) {
            return null;
        }
        switch (type.root()) {
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
                BigDecimal bd = (v instanceof BigDecimal ? (BigDecimal) v : new BigDecimal(v.toString()))
                        .setScale(d.scale(), RoundingMode.UNNECESSARY);
                Decimal out = Decimal.fromBigDecimal(bd, d.precision(), d.scale());
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
                DataType et = ((ArrayType) type).elementType();
                return new GenericArray(((List<?>) v).stream().map(e -> toOurValue(e, et)).toArray());
            }
            case MULTISET: {
                DataType et = ((ArrayType) type).elementType();
                Map<Object, Object> out = new LinkedHashMap<>();
                ((Map<?, ?>) v).forEach((e, count) -> out.put(toOurValue(e, et), ((Number) count).intValue()));
                return new GenericMap(out);
            }
            case MAP: {
                MapType mt = (MapType) type;
                Map<Object, Object> out = new LinkedHashMap<>();
                ((Map<?, ?>) v).forEach((k, val) -> out.put(toOurValue(k, mt.keyType()), toOurValue(val, mt.valueType())));
                return new GenericMap(out);
            }
            case ROW: {
                RowType rt = (RowType) type;
                List<?> fields = (List<?>) v;
                Object[] out = new Object[rt.fieldCount()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = toOurValue(fields.get(i), rt.typeAt(i));
                }
                return GenericRow.of(out);
            }
            default:
                throw new IllegalArgumentException("Cannot convert " + v + " to our value of type " + type);
        }
    }

    public static RowKind toOurKind(CanonicalRow.Kind kind) {
        switch (kind) {
            case INSERT:
                return RowKind.INSERT;
            case UPDATE_BEFORE:
                return RowKind.UPDATE_BEFORE;
            case UPDATE_AFTER:
                return RowKind.UPDATE_AFTER;
            default:
                return RowKind.DELETE;
        }
    }

    public static CanonicalRow.Kind fromOurKind(RowKind kind) {
        return CanonicalRow.Kind.fromShortString(kind.shortString());
    }
}
