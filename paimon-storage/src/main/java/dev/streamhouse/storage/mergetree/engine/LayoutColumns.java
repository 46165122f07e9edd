package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.RowType;

import java.util.Arrays;

/**
 * The value columns a field-by-field merge function works on: the table positions of a layout (all
 * columns, or a read projection), with a getter, the nullability and the name of each. Shared by
 * the partial-update and aggregation engines.
 */
final class LayoutColumns {
    final int[] tablePositions;
    final FieldGetter[] getters;
    final boolean[] nullable;
    final String[] names;
    private final String engine;

    LayoutColumns(RowType rowType, int[] tablePositions, String engine) {
        this.tablePositions = tablePositions.clone();
        this.engine = engine;
        int n = tablePositions.length;
        this.getters = new FieldGetter[n];
        this.nullable = new boolean[n];
        this.names = new String[n];
        for (int i = 0; i < n; i++) {
            int tablePos = tablePositions[i];
            getters[i] = InternalRowUtils.fieldGetter(rowType.typeAt(tablePos), i);
            nullable[i] = rowType.typeAt(tablePos).isNullable();
            names[i] = rowType.field(tablePos).name();
        }
    }

    /** All {@code n} columns of the table, in order. */
    static int[] all(int n) {
        int[] out = new int[n];
        Arrays.setAll(out, i -> i);
        return out;
    }

    int size() {
        return getters.length;
    }

    /** Copies the NOT NULL columns (the key among them), which every row must have, into {@code target}. */
    void copyNotNullColumns(GenericRow target, InternalRow value) {
        for (int i = 0; i < getters.length; i++) {
            if (!nullable[i]) {
                Object field = getters[i].get(value);
                if (field == null) {
                    throw notNull(i);
                }
                target.setField(i, field);
            }
        }
    }

    IllegalArgumentException notNull(int pos) {
        return new IllegalArgumentException("Cannot merge with the " + engine + " engine: column '" + names[pos]
                + "' is NOT NULL and a version has NULL in it");
    }
}
