package dev.streamhouse.storage.mergetree.buffer;

import java.io.IOException;
import java.util.List;

/**
 * Merges sorted cursors into one sorted cursor (key, then sequence number) with a binary min-heap:
 * {@code log k} record comparisons per record. Closing it closes all sources.
 */
final class MergingCursor implements RecordCursor {
    private final List<RecordCursor> sources;
    private final SerializedKeyComparator comparator;
    private final RecordCursor[] heap;
    private int size;
    private boolean started;

    MergingCursor(List<RecordCursor> sources, SerializedKeyComparator comparator) {
        this.sources = List.copyOf(sources);
        this.comparator = comparator;
        this.heap = new RecordCursor[sources.size()];
    }

    @Override
    public boolean advance() throws IOException {
        if (!started) {
            started = true;
            for (RecordCursor source : sources) {
                if (source.advance()) {
                    heap[size++] = source;
                }
            }
            for (int i = size / 2 - 1; i >= 0; i--) {
                siftDown(i);
            }
            return size > 0;
        }
        if (size == 0) {
            return false;
        }
        if (!heap[0].advance()) {
            heap[0] = heap[--size];
            heap[size] = null;
        }
        if (size > 0) {
            siftDown(0);
        }
        return size > 0;
    }

    private boolean less(RecordCursor a, RecordCursor b) {
        return comparator.compareRecords(a.buffer(), a.offset(), b.buffer(), b.offset()) < 0;
    }

    private void siftDown(int i) {
        RecordCursor moving = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && less(heap[child + 1], heap[child])) {
                child++;
            }
            if (!less(heap[child], moving)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = moving;
    }

    @Override
    public byte[] buffer() {
        return heap[0].buffer();
    }

    @Override
    public int offset() {
        return heap[0].offset();
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (RecordCursor source : sources) {
            try {
                source.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
