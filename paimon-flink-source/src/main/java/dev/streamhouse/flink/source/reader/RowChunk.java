package dev.streamhouse.flink.source.reader;

import dev.streamhouse.storage.data.InternalRow;

/**
 * Consecutive rows of one split, read together by the fetcher thread and emitted together by the task
 * thread: Flink's source reader then does its per-record work (a poll, a split lookup, a return to the
 * mailbox loop) once per chunk rather than once per row.
 *
 * <p>Holds at most the capacity it was made with, in read order. Filled by one thread and handed over
 * whole; not thread-safe.
 */
public final class RowChunk {
    private final InternalRow[] rows;
    private int size;

    RowChunk(int capacity) {
        this.rows = new InternalRow[capacity];
    }

    void add(InternalRow row) {
        rows[size++] = row;
    }

    boolean isFull() {
        return size == rows.length;
    }

    /** How many rows the chunk holds. */
    public int size() {
        return size;
    }

    /** Row {@code i} of the chunk, {@code 0 <= i < size()}. */
    public InternalRow row(int i) {
        if (i >= size) {
            throw new IndexOutOfBoundsException("Row " + i + " of a chunk of " + size);
        }
        return rows[i];
    }
}
