package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges several readers of KeyValues, each sorted by key with every key at most once (a sorted run,
 * or one level-0 file), into one reader with one merged version per key, in key order.
 *
 * <p>For each key, all its versions are passed to the merge function in {@link VersionOrder}; the
 * function's result is emitted unless null. Results may be retractions; use {@link DropRetractReader}
 * for table reads.
 *
 * <p>Inputs may reuse their KeyValue objects: a version stays untouched until its input is advanced,
 * which happens only when the next key is requested, so nothing is copied. The returned KeyValue (and
 * the objects it references) are valid until the next call of {@code next()}. The output is a single
 * batch. Not thread-safe. Closing closes all inputs.
 */
public final class SortMergeReader implements RecordReader<KeyValue> {
    private final List<Input> inputs = new ArrayList<>();
    private final Comparator<InternalRow> keyComparator;
    private final MergeFunction mergeFunction;
    private final PriorityQueue<Input> heap;
    /** Inputs whose current version went into the last result; advanced on the next call. */
    private final List<Input> polled = new ArrayList<>();
    private boolean started;
    private boolean batchReturned;

    /**
     * @param keyComparator the key order of the inputs (e.g. {@link KeyRowComparator})
     * @param versionOrder how versions of one key reach the merge function
     */
    public SortMergeReader(List<? extends RecordReader<KeyValue>> readers, Comparator<InternalRow> keyComparator,
            Comparator<KeyValue> versionOrder, MergeFunction mergeFunction) {
        this.keyComparator = keyComparator;
        this.mergeFunction = mergeFunction;
        for (RecordReader<KeyValue> r : readers) {
            inputs.add(new Input(r));
        }
        this.heap = new PriorityQueue<>(Math.max(1, inputs.size()), (a, b) -> {
            int c = keyComparator.compare(a.current.key(), b.current.key());
            return c != 0 ? c : versionOrder.compare(a.current, b.current);
        });
    }

    @Override
    public RecordIterator<KeyValue> readBatch() throws IOException {
        if (batchReturned) {
            return null;
        }
        batchReturned = true;
        return new RecordIterator<KeyValue>() {
            @Override
            public KeyValue next() throws IOException {
                return nextMerged();
            }

            @Override
            public void releaseBatch() {
                // versions stay owned by the inputs; nothing to release
            }
        };
    }

    private KeyValue nextMerged() throws IOException {
        if (!started) {
            started = true;
            for (Input in : inputs) {
                if (in.advance()) {
                    heap.add(in);
                }
            }
        }
        while (true) {
            for (Input in : polled) {
                if (in.advance()) {
                    heap.add(in);
                }
            }
            polled.clear();
            Input first = heap.poll();
            if (first == null) {
                return null;
            }
            polled.add(first);
            mergeFunction.reset();
            mergeFunction.add(first.current);
            InternalRow key = first.current.key();
            while (!heap.isEmpty() && keyComparator.compare(heap.peek().current.key(), key) == 0) {
                Input same = heap.poll();
                polled.add(same);
                mergeFunction.add(same.current);
            }
            KeyValue result = mergeFunction.result();
            if (result != null) {
                return result;
            }
        }
    }

    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (Input in : inputs) {
            try {
                in.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        heap.clear();
        polled.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** One input: its current batch and current version. */
    private static final class Input {
        private final RecordReader<KeyValue> reader;
        private RecordIterator<KeyValue> batch;
        private KeyValue current;
        private boolean exhausted;

        Input(RecordReader<KeyValue> reader) {
            this.reader = reader;
        }

        /** Moves to the next version; false (and releases everything) at the end. */
        boolean advance() throws IOException {
            while (!exhausted) {
                if (batch != null) {
                    KeyValue next = batch.next();
                    if (next != null) {
                        current = next;
                        return true;
                    }
                    batch.releaseBatch();
                    batch = null;
                }
                batch = reader.readBatch();
                if (batch == null) {
                    exhausted = true;
                }
            }
            current = null;
            return false;
        }

        void close() throws IOException {
            if (batch != null) {
                batch.releaseBatch();
                batch = null;
            }
            exhausted = true;
            current = null;
            reader.close();
        }
    }
}
