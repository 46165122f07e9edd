package dev.streamhouse.flink.source.reader;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.columnar.ColumnarBatch;
import dev.streamhouse.storage.data.columnar.ColumnarRow;

/**
 * Consecutive rows of one split, read together by the fetcher thread and emitted together by the task
 * thread: Flink's source reader then does its per-record work (a poll, a split lookup, a return to the
 * mailbox loop) once per chunk rather than once per row.
 *
 * <p>Two forms. A <b>columnar</b> chunk holds row ids of one {@link ColumnarBatch} (whose vectors are
 * never refilled, so it stays valid while the fetcher reads on); no object exists per row until a
 * row is asked for, and {@link #row(int, ColumnarRow)} can then point one reused view at it. A chunk
 * of <b>rows</b> holds row objects, e.g. a merge read's merged rows.
 *
 * <p>Holds at most the capacity it was made with, in read order. Filled by one thread and handed over
 * whole; not thread-safe.
 */
public final class RowChunk {
    private final ColumnarBatch batch;
    private final int[] rowIds;
    private final InternalRow[] rows;
    private final RowKind kind;
    private int size;

    private RowChunk(ColumnarBatch batch, int[] rowIds, InternalRow[] rows, RowKind kind) {
        this.batch = batch;
        this.rowIds = rowIds;
        this.rows = rows;
        this.kind = kind;
    }

    /** A chunk of row objects; each keeps its own kind. */
    static RowChunk ofRows(int capacity) {
        return new RowChunk(null, null, new InternalRow[capacity], null);
    }

    /**
     * A chunk of rows of {@code batch}.
     *
     * @param kind the kind of every row, or null for the kind the batch gives each row
     */
    static RowChunk ofBatch(ColumnarBatch batch, int capacity, RowKind kind) {
        return new RowChunk(batch, new int[capacity], null, kind);
    }

    void add(InternalRow row) {
        rows[size++] = row;
    }

    void addRowId(int rowId) {
        rowIds[size++] = rowId;
    }

    /** Whether this is a columnar chunk of rows of {@code batch}. */
    boolean holdsRowsOf(ColumnarBatch batch) {
        return rows == null && this.batch == batch;
    }

    /** Whether this is a chunk of row objects. */
    boolean holdsRowObjects() {
        return rows != null;
    }

    boolean isFull() {
        return size == (rowIds != null ? rowIds.length : rows.length);
    }

    /** How many rows the chunk holds. */
    public int size() {
        return size;
    }

    /**
     * Row {@code i} of the chunk, {@code 0 <= i < size()}: of a columnar chunk, {@code reuse} pointed at
     * it (valid until {@code reuse} moves), otherwise the row object itself.
     */
    public InternalRow row(int i, ColumnarRow reuse) {
        if (i >= size) {
            throw new IndexOutOfBoundsException("Row " + i + " of a chunk of " + size);
        }
        if (rows != null) {
            return rows[i];
        }
        reuse.point(batch, rowIds[i]);
        if (kind != null) {
            reuse.setRowKind(kind);
        }
        return reuse;
    }

    /** Row {@code i} of the chunk as a row object of its own. */
    public InternalRow row(int i) {
        return rows != null ? row(i, null) : row(i, new ColumnarRow());
    }
}
