package dev.streamhouse.storage.reader;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/** Reads several readers one after the other, opening each only when the previous is exhausted. */
public final class ConcatRecordReader<T> implements RecordReader<T> {

    /** Opens a reader lazily. */
    @FunctionalInterface
    public interface ReaderSupplier<T> {
        RecordReader<T> open() throws IOException;
    }

    private final Deque<ReaderSupplier<T>> pending;
    private RecordReader<T> current;

    public ConcatRecordReader(List<ReaderSupplier<T>> suppliers) {
        this.pending = new ArrayDeque<>(suppliers);
    }

    @Override
    public RecordIterator<T> readBatch() throws IOException {
        while (true) {
            if (current == null) {
                ReaderSupplier<T> next = pending.poll();
                if (next == null) {
                    return null;
                }
                current = next.open();
            }
            RecordIterator<T> batch = current.readBatch();
            if (batch != null) {
                return batch;
            }
            current.close();
            current = null;
        }
    }

    @Override
    public void close() throws IOException {
        pending.clear();
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
