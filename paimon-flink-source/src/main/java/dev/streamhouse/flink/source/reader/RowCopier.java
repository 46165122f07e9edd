package dev.streamhouse.flink.source.reader;

import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

/**
 * Deep-copies rows of one row type into {@link GenericRow}s that share nothing with the source row,
 * so they outlive a reader that reuses its rows and buffers. Getters are prepared once per type;
 * immutable afterwards, so it may be shared between threads.
 */
final class RowCopier {
    private final DataType[] types;
    private final FieldGetter[] getters;

    RowCopier(RowType type) {
        this.types = type.fieldTypes().toArray(new DataType[0]);
        this.getters = InternalRowUtils.fieldGetters(type.fieldTypes());
    }

    /** A copy of {@code row} with the same row kind. */
    GenericRow copy(InternalRow row) {
        GenericRow out = new GenericRow(types.length);
        out.setRowKind(row.rowKind());
        for (int i = 0; i < types.length; i++) {
            out.setField(i, InternalRowUtils.copyValue(getters[i].get(row), types[i]));
        }
        return out;
    }
}
