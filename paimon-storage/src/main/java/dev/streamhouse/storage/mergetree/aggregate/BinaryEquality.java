package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;

import java.util.Arrays;
import java.util.Objects;

/**
 * Equality of nested values (arrays, maps, rows) byte for byte in Apache Paimon's binary format, as
 * {@code equals} of its binary arrays, maps and rows decides it: the same kind and fields for rows, the
 * same elements in the same order for arrays, the same entries in the same order for maps, binaries by
 * content, FLOAT and DOUBLE by bits ({@link Float#equals}: NaN equals NaN, -0.0 differs from 0.0). It does
 * not depend on which {@link InternalRow}, {@link InternalArray} or {@link InternalMap} class holds a
 * value. Paimon compares so where it calls {@code equals} on values it read, e.g. when {@code collect}
 * retracts without {@code distinct}.
 */
final class BinaryEquality {
    private BinaryEquality() {}

    /** Whether {@code a} and {@code b} (either may be null) of {@code type} are the same value. */
    static boolean equal(Object a, Object b, DataType type) {
        if (a == null || b == null) {
            return a == b;
        }
        switch (type.root()) {
            case BINARY:
            case VARBINARY:
            case VARIANT:
                return Arrays.equals((byte[]) a, (byte[]) b);
            case ARRAY:
                return arraysEqual((InternalArray) a, (InternalArray) b, ((ArrayType) type).elementType());
            case MULTISET:
                return mapsEqual((InternalMap) a, (InternalMap) b, ((ArrayType) type).elementType(),
                        InternalRowUtils.MULTISET_COUNT_TYPE);
            case MAP:
                return mapsEqual((InternalMap) a, (InternalMap) b, ((MapType) type).keyType(), ((MapType) type).valueType());
            case ROW:
                return rowsEqual((InternalRow) a, (InternalRow) b, (RowType) type);
            default:
                return Objects.equals(a, b);
        }
    }

    private static boolean rowsEqual(InternalRow a, InternalRow b, RowType type) {
        if (a.rowKind() != b.rowKind()) {
            return false;
        }
        for (int i = 0; i < type.fieldCount(); i++) {
            DataType t = type.typeAt(i);
            if (!equal(InternalRowUtils.fieldGetter(t, i).get(a), InternalRowUtils.fieldGetter(t, i).get(b), t)) {
                return false;
            }
        }
        return true;
    }

    private static boolean arraysEqual(InternalArray a, InternalArray b, DataType elementType) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!equal(InternalRowUtils.arrayElement(a, i, elementType),
                    InternalRowUtils.arrayElement(b, i, elementType), elementType)) {
                return false;
            }
        }
        return true;
    }

    private static boolean mapsEqual(InternalMap a, InternalMap b, DataType keyType, DataType valueType) {
        return a.size() == b.size()
                && arraysEqual(a.keyArray(), b.keyArray(), keyType)
                && arraysEqual(a.valueArray(), b.valueArray(), valueType);
    }
}
