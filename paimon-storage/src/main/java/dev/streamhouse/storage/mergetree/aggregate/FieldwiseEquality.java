package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;

/**
 * Equality of nested values as Apache Paimon's generated record equaliser decides it for the rows it
 * reads from data files (which are not binary rows of their own but rows nested in arrays, so the
 * equaliser compares them field by field). Paimon uses it where {@code collect} deduplicates or
 * retracts nested elements with {@code distinct}, and where {@code nested_update} without keys retracts.
 *
 * <ul>
 *   <li>Rows: the same kind, and each field NULL on both sides or equal on both: BOOLEAN, numbers, DATE
 *       and TIME by {@code ==} (so NaN never equals NaN and -0.0 equals 0.0), strings, binaries,
 *       decimals and timestamps by value, rows field by field, arrays as bytes ({@link BinaryEquality}).
 *   <li>Maps (and multisets): the same size, and every key of one found in the other (keys compared as
 *       Paimon's hash maps compare them, see {@link PaimonHashKey}; binary keys are never found) with an
 *       equal value; a NULL value equals nothing. Values of BOOLEAN, number, DATE and TIME types are
 *       boxed Java objects there and compared by reference, so they are equal only where Java caches
 *       the boxes: every BOOLEAN and TINYINT, SMALLINT to BIGINT values from -128 to 127, never a FLOAT
 *       or DOUBLE. Other values compare as row fields.
 *   <li>Arrays: as bytes.
 * </ul>
 */
final class FieldwiseEquality {
    private FieldwiseEquality() {}

    /** Whether two non-null nested values of {@code type} are equal; other types compare as row fields. */
    static boolean equal(Object a, Object b, DataType type) {
        switch (type.root()) {
            case BOOLEAN:
                return ((Boolean) a).booleanValue() == (Boolean) b;
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case BIGINT:
                return ((Number) a).longValue() == ((Number) b).longValue();
            case FLOAT:
                return ((Float) a).floatValue() == (Float) b;
            case DOUBLE:
                return ((Double) a).doubleValue() == (Double) b;
            case DECIMAL:
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return InternalRowUtils.compare(a, b, type) == 0;
            case ROW:
                return rowsEqual((InternalRow) a, (InternalRow) b, (RowType) type);
            case MAP:
                return mapsEqual((InternalMap) a, (InternalMap) b, ((MapType) type).keyType(), ((MapType) type).valueType());
            case MULTISET:
                return mapsEqual((InternalMap) a, (InternalMap) b, ((ArrayType) type).elementType(),
                        InternalRowUtils.MULTISET_COUNT_TYPE);
            default:
                return BinaryEquality.equal(a, b, type);
        }
    }

    static boolean rowsEqual(InternalRow a, InternalRow b, RowType type) {
        if (a.rowKind() != b.rowKind()) {
            return false;
        }
        for (int i = 0; i < type.fieldCount(); i++) {
            boolean nullA = a.isNullAt(i);
            boolean nullB = b.isNullAt(i);
            if (nullA || nullB) {
                if (nullA != nullB) {
                    return false;
                }
                continue;
            }
            DataType t = type.typeAt(i);
            if (!equal(InternalRowUtils.fieldGetter(t, i).get(a), InternalRowUtils.fieldGetter(t, i).get(b), t)) {
                return false;
            }
        }
        return true;
    }

    private static boolean mapsEqual(InternalMap a, InternalMap b, DataType keyType, DataType valueType) {
        if (a.size() != b.size()) {
            return false;
        }
        InternalArray keysA = a.keyArray();
        InternalArray valuesA = a.valueArray();
        for (int i = 0; i < a.size(); i++) {
            int j = lastIndexOfKey(b.keyArray(), InternalRowUtils.arrayElement(keysA, i, keyType), keyType);
            if (j < 0) {
                return false;
            }
            Object va = InternalRowUtils.arrayElement(valuesA, i, valueType);
            Object vb = InternalRowUtils.arrayElement(b.valueArray(), j, valueType);
            if (va == null || vb == null || !mapValuesEqual(va, vb, valueType)) {
                return false;
            }
        }
        return true;
    }

    private static boolean mapValuesEqual(Object a, Object b, DataType type) {
        switch (type.root()) {
            case BOOLEAN:
                return a.equals(b);
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case BIGINT: {
                long x = ((Number) a).longValue();
                boolean cached = type.root() == DataTypeRoot.TINYINT || (x >= -128 && x <= 127);
                return cached && x == ((Number) b).longValue();
            }
            case FLOAT:
            case DOUBLE:
                return false;
            default:
                return equal(a, b, type);
        }
    }

    /** Where {@code key} is among {@code keys} as a Java map of them would find it (the last one wins). */
    private static int lastIndexOfKey(InternalArray keys, Object key, DataType keyType) {
        for (int j = keys.size() - 1; j >= 0; j--) {
            if (sameKey(key, InternalRowUtils.arrayElement(keys, j, keyType), keyType)) {
                return j;
            }
        }
        return -1;
    }

    private static boolean sameKey(Object a, Object b, DataType keyType) {
        switch (keyType.root()) {
            case BINARY:
            case VARBINARY:
                // Paimon's maps hold fresh byte arrays here, equal only to themselves.
                return false;
            default:
                return keyType.root().isNested()
                        ? BinaryEquality.equal(a, b, keyType)
                        : PaimonHashKey.of(a, keyType).equals(PaimonHashKey.of(b, keyType));
        }
    }
}
