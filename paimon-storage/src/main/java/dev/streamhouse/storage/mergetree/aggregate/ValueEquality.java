package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Whether two value rows of a table hold the same values in the compared columns, each value compared
 * as Apache Paimon's binary format compares it ({@link BinaryEquality}); the row kinds are not
 * compared. Used by {@code changelog-producer.row-deduplicate} to leave out unchanged -U/+U pairs.
 * Thread-safe.
 */
public final class ValueEquality implements BiPredicate<InternalRow, InternalRow> {
    private final int[] positions;
    private final DataType[] types;
    private final FieldGetter[] getters;

    private ValueEquality(int[] positions, DataType[] types) {
        this.positions = positions;
        this.types = types;
        this.getters = new FieldGetter[positions.length];
        for (int i = 0; i < positions.length; i++) {
            getters[i] = InternalRowUtils.fieldGetter(types[i], positions[i]);
        }
    }

    /**
     * Compares every column of {@code type} but {@code ignored}.
     *
     * @throws IllegalArgumentException naming a column of {@code ignored} the type does not have
     */
    public static ValueEquality ignoring(RowType type, Set<String> ignored) {
        for (String name : ignored) {
            if (!type.fieldNames().contains(name)) {
                throw new IllegalArgumentException("Cannot ignore column '" + name + "' when comparing rows: the table "
                        + "has no such column (columns: " + type.fieldNames() + ")");
            }
        }
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < type.fieldCount(); i++) {
            if (!ignored.contains(type.fieldNames().get(i))) {
                kept.add(i);
            }
        }
        int[] positions = kept.stream().mapToInt(Integer::intValue).toArray();
        DataType[] types = new DataType[positions.length];
        for (int i = 0; i < positions.length; i++) {
            types[i] = type.typeAt(positions[i]);
        }
        return new ValueEquality(positions, types);
    }

    @Override
    public boolean test(InternalRow a, InternalRow b) {
        for (int i = 0; i < positions.length; i++) {
            int p = positions[i];
            boolean nullA = a.isNullAt(p);
            if (nullA || b.isNullAt(p)) {
                if (nullA != b.isNullAt(p)) {
                    return false;
                }
                continue;
            }
            Object va = getters[i].get(a);
            Object vb = getters[i].get(b);
            if (!BinaryEquality.equal(va, vb, types[i])) {
                return false;
            }
        }
        return true;
    }
}
