package dev.streamhouse.flink.source.data;

import dev.streamhouse.flink.common.FlinkRowKinds;
import dev.streamhouse.storage.data.DataGetters;
import dev.streamhouse.storage.data.InternalRow;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

/**
 * Presents one of our {@link InternalRow}s as Flink {@link RowData} without copying it (see
 * {@link GettersView} for how values map). The Flink type of the row is
 * {@link dev.streamhouse.flink.common.FlinkTypes#toFlinkType} of the wrapped row's type.
 *
 * <p>The view reads through to the wrapped row, so it is valid only as long as that row is: wrap a
 * copy when the row comes from a reader that reuses its rows. The row kind starts as the wrapped row's
 * and can be changed on the view alone ({@link #setRowKind}); the wrapped row is never modified.
 * Not thread-safe.
 */
public final class FlinkRowData extends GettersView implements RowData {
    private InternalRow row;
    private RowKind kind;

    public FlinkRowData(InternalRow row) {
        replace(row);
    }

    /** A view of no row yet, for callers that reuse one view: {@link #replace} it before use. */
    public FlinkRowData() {}

    /** Points this view at another row (for callers that reuse one view) and takes over its row kind. */
    public FlinkRowData replace(InternalRow row) {
        this.row = row;
        this.kind = FlinkRowKinds.toFlink(row.rowKind());
        return this;
    }

    /** The wrapped row. */
    public InternalRow row() {
        return row;
    }

    @Override
    DataGetters getters() {
        return row;
    }

    @Override
    public int getArity() {
        return row.arity();
    }

    @Override
    public RowKind getRowKind() {
        return kind;
    }

    @Override
    public void setRowKind(RowKind kind) {
        this.kind = kind;
    }


    @Override
    public String toString() {
        return "FlinkRowData{" + kind.shortString() + " " + row + "}";
    }
}
