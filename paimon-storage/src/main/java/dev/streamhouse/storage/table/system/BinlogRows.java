package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;

/**
 * The binlog's rows from a data read: each data row becomes a row of one-element arrays with the data
 * row's kind in {@code rowkind}; a -U immediately followed by a +U (an update in the changelog)
 * becomes one row of kind '+U' with two-element arrays {@code [before, after]}. A -U followed by
 * anything else stays a row of its own. The pair may span the data read's batches: a data row stays
 * valid after its batch is released ({@code TableRead}'s contract), so it is held across the
 * boundary. Rows are fresh {@link GenericRow}s of kind +I holding the data rows' values.
 */
final class BinlogRows implements RecordReader<InternalRow> {
    private final RecordReader<InternalRow> data;
    private final int[] dataIndexOf;
    private final FieldGetter[] getters;
    private RecordIterator<InternalRow> batch;
    /** A data row read ahead (the one after a -U that did not complete an update), or null. */
    private InternalRow pending;
    private boolean exhausted;

    /**
     * @param dataIndexOf for each view column read, the position of its data column, -1 for rowkind
     * @param dataType the type of the data rows
     */
    BinlogRows(RecordReader<InternalRow> data, int[] dataIndexOf, RowType dataType) {
        this.data = data;
        this.dataIndexOf = dataIndexOf;
        this.getters = new FieldGetter[dataIndexOf.length];
        for (int i = 0; i < dataIndexOf.length; i++) {
            if (dataIndexOf[i] >= 0) {
                getters[i] = InternalRowUtils.fieldGetter(dataType.typeAt(dataIndexOf[i]), dataIndexOf[i]);
            }
        }
    }

    @Override
    public RecordIterator<InternalRow> readBatch() throws IOException {
        if (pending == null && !nextDataBatch()) {
            return null;
        }
        return new RecordIterator<>() {
            @Override
            public InternalRow next() throws IOException {
                InternalRow row = take();
                if (row == null) {
                    return null;
                }
                if (row.rowKind() == RowKind.UPDATE_BEFORE) {
                    InternalRow after = takeAcrossBatches();
                    if (after != null && after.rowKind() == RowKind.UPDATE_AFTER) {
                        return viewRow(RowKind.UPDATE_AFTER, row, after);
                    }
                    pending = after;
                }
                return viewRow(row.rowKind(), row);
            }

            @Override
            public void releaseBatch() {
                releaseDataBatch();
            }
        };
    }

    /** The pending row, else the next row of the current data batch; null at the batch's end. */
    private InternalRow take() throws IOException {
        if (pending != null) {
            InternalRow r = pending;
            pending = null;
            return r;
        }
        return batch == null ? null : batch.next();
    }

    /** The next data row, moving on to the next data batches if needed; null at the end of the data. */
    private InternalRow takeAcrossBatches() throws IOException {
        while (batch != null) {
            InternalRow r = batch.next();
            if (r != null) {
                return r;
            }
            releaseDataBatch();
            nextDataBatch();
        }
        return null;
    }

    private boolean nextDataBatch() throws IOException {
        if (exhausted) {
            return false;
        }
        batch = data.readBatch();
        exhausted = batch == null;
        return !exhausted;
    }

    private void releaseDataBatch() {
        if (batch != null) {
            batch.releaseBatch();
            batch = null;
        }
    }

    private GenericRow viewRow(RowKind kind, InternalRow... versions) {
        GenericRow out = new GenericRow(dataIndexOf.length);
        for (int i = 0; i < dataIndexOf.length; i++) {
            if (dataIndexOf[i] < 0) {
                out.setField(i, AuditLogRow.kindString(kind));
            } else {
                Object[] values = new Object[versions.length];
                for (int v = 0; v < versions.length; v++) {
                    values[v] = getters[i].get(versions[v]);
                }
                out.setField(i, new GenericArray(values));
            }
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        releaseDataBatch();
        data.close();
    }
}
