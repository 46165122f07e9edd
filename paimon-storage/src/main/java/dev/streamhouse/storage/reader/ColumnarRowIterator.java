package dev.streamhouse.storage.reader;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.columnar.ColumnarBatch;
import dev.streamhouse.storage.data.columnar.ColumnarRow;

import java.util.function.IntPredicate;
import java.util.function.UnaryOperator;

/**
 * The rows of a {@link ColumnarBatch}, in row-id order, optionally only those a selection keeps.
 * {@link #next()} returns a {@link ColumnarRow} view of the next row, a small object of its own per
 * row; nothing is copied. Consumers that work on vectors use {@link #batch()} and {@link #nextRowId()}
 * instead.
 *
 * <p>A selection is the increasing ids of the kept rows, computed when it is made ({@link #keepOnly},
 * {@link #skipRows}): iterating costs an array read per kept row, however many selections were
 * stacked, and no predicate runs while rows are consumed.
 *
 * <p>The vectors of the columnar readers here are filled once and never refilled, so rows stay valid
 * after {@link #releaseBatch()}, which only tells the reader that the batch is done. Derived iterators
 * ({@link #withBatch}, {@link #keepOnly}, {@link #skipRows}) replace this one, which must not be used
 * any more (they may share and overwrite its selection): use only the derived one, and release only
 * it.
 */
public final class ColumnarRowIterator implements RecordIterator<InternalRow> {
    private final ColumnarBatch batch;
    /** The kept row ids are {@code selection[0, selected)}, increasing; all rows when null. */
    private final int[] selection;
    private final int selected;
    private final Runnable release;
    private int next;
    private boolean released;

    /**
     * @param release called once when the batch is released; null when there is nothing to recycle
     */
    public ColumnarRowIterator(ColumnarBatch batch, Runnable release) {
        this(batch, null, batch.numRows(), release);
    }

    private ColumnarRowIterator(ColumnarBatch batch, int[] selection, int selected, Runnable release) {
        this.batch = batch;
        this.selection = selection;
        this.selected = selected;
        this.release = release;
    }

    public ColumnarBatch batch() {
        return batch;
    }

    /** The same rows (and selection) over another batch of the same rows, e.g. a projection or cast of it. */
    public ColumnarRowIterator withBatch(UnaryOperator<ColumnarBatch> derive) {
        return new ColumnarRowIterator(derive.apply(batch), selection, selected, release);
    }

    /** Only the selected rows that {@code rowIds} also keeps (tested now, in row-id order, once per row). */
    public ColumnarRowIterator keepOnly(IntPredicate rowIds) {
        if (selection == null) {
            int n = batch.numRows();
            int[] kept = new int[n];
            int k = 0;
            for (int id = 0; id < n; id++) {
                if (rowIds.test(id)) {
                    kept[k++] = id;
                }
            }
            return new ColumnarRowIterator(batch, kept, k, release);
        }
        int k = 0;
        for (int i = 0; i < selected; i++) {
            int id = selection[i];
            if (rowIds.test(id)) {
                selection[k++] = id;
            }
        }
        return new ColumnarRowIterator(batch, selection, k, release);
    }

    /**
     * Only the selected rows that are not among {@code rowIds[0, count)} (increasing row ids of this
     * batch): one pass over both, no per-row call.
     */
    public ColumnarRowIterator skipRows(int[] rowIds, int count) {
        if (count == 0) {
            return this;
        }
        if (selection == null) {
            // The ids between consecutive skipped ones, in runs.
            int n = batch.numRows();
            int[] kept = new int[n];
            int k = 0;
            int from = 0;
            for (int d = 0; d < count; d++) {
                int skipped = rowIds[d];
                for (int id = from; id < skipped; id++) {
                    kept[k++] = id;
                }
                from = skipped + 1;
            }
            for (int id = from; id < n; id++) {
                kept[k++] = id;
            }
            return new ColumnarRowIterator(batch, kept, k, release);
        }
        int k = 0;
        int d = 0;
        for (int i = 0; i < selected; i++) {
            int id = selection[i];
            while (d < count && rowIds[d] < id) {
                d++;
            }
            if (d < count && rowIds[d] == id) {
                continue;
            }
            selection[k++] = id;
        }
        return new ColumnarRowIterator(batch, selection, k, release);
    }

    /** How many rows this iterator returns in all (those already returned included). */
    public int size() {
        return selected;
    }

    /** The id of the next kept row, or -1 at the end. */
    public int nextRowId() {
        if (next >= selected) {
            return -1;
        }
        int i = next++;
        return selection == null ? i : selection[i];
    }

    @Override
    public InternalRow next() {
        int id = nextRowId();
        if (id < 0) {
            return null;
        }
        return new ColumnarRow(batch, id);
    }

    @Override
    public void releaseBatch() {
        if (!released) {
            released = true;
            if (release != null) {
                release.run();
            }
        }
    }
}
