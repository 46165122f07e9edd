package dev.streamhouse.storage.data;

import dev.streamhouse.storage.types.DataType;

import java.util.List;

/**
 * Converts rows (or selected fields of rows) into {@link BinaryRow}s, e.g. partition values,
 * primary keys and statistics rows. Not thread-safe: it reuses one writer.
 */
public final class BinaryRowConverter {
    private final List<DataType> types;
    private final FieldGetter[] getters;
    private final BinaryRowWriter writer;

    /** Converts whole rows of the given field types. */
    public BinaryRowConverter(List<DataType> types) {
        this(types, identity(types.size()));
    }

    /**
     * Converts the fields at {@code positions} of the source row; {@code sourceTypes} are the types of
     * those fields, in the same order.
     */
    public BinaryRowConverter(List<DataType> sourceTypes, int[] positions) {
        this.types = sourceTypes;
        this.getters = new FieldGetter[positions.length];
        for (int i = 0; i < positions.length; i++) {
            getters[i] = InternalRowUtils.fieldGetter(sourceTypes.get(i), positions[i]);
        }
        this.writer = new BinaryRowWriter(positions.length);
    }

    private static int[] identity(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        return p;
    }

    public BinaryRow toBinaryRow(InternalRow row) {
        writer.reset();
        for (int i = 0; i < getters.length; i++) {
            InternalRowUtils.writeField(writer, i, getters[i].get(row), types.get(i));
        }
        return writer.complete();
    }

    /** A BinaryRow of the given internal values (nullable), one per type. */
    public BinaryRow toBinaryRow(Object[] values) {
        writer.reset();
        for (int i = 0; i < values.length; i++) {
            InternalRowUtils.writeField(writer, i, values[i], types.get(i));
        }
        return writer.complete();
    }
}
