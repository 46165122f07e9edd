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
 * <p>The vectors of the columnar readers here are filled once and never refilled, so rows stay valid
 * after {@link #releaseBatch()}, which only tells the reader that the batch is done. Derived iterators
 * ({@link #withBatch}, {@link #keepOnly}) replace this one: use only the derived one, and release
 * only it.
 */
public final class ColumnarRowIterator implements RecordIterator<InternalRow> {
    private final ColumnarBatch batch;
    private final IntPredicate keep;
    private final Runnable release;
    private int next;
    private boolean released;

    /**
     * @param release called once when the batch is released; null when there is nothing to recycle
     */
    public ColumnarRowIterator(ColumnarBatch batch, Runnable release) {
        this(batch, null, release);
    }

    private ColumnarRowIterator(ColumnarBatch batch, IntPredicate keep, Runnable release) {
        this.batch = batch;
        this.keep = keep;
        this.release = release;
    }

    public ColumnarBatch batch() {
        return batch;
    }

    /** The same rows (and selection) over another batch of the same rows, e.g. a projection or cast of it. */
    public ColumnarRowIterator withBatch(UnaryOperator<ColumnarBatch> derive) {
        return new ColumnarRowIterator(derive.apply(batch), keep, release);
    }

    /** Only the selected rows that {@code rowIds} also keeps (tested in row-id order, once per row). */
    public ColumnarRowIterator keepOnly(IntPredicate rowIds) {
        IntPredicate combined = keep == null ? rowIds : id -> keep.test(id) && rowIds.test(id);
        return new ColumnarRowIterator(batch, combined, release);
    }

    /** The id of the next kept row, or -1 at the end. */
    public int nextRowId() {
        int n = batch.numRows();
        while (next < n) {
            int id = next++;
            if (keep == null || keep.test(id)) {
                return id;
            }
        }
        return -1;
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
