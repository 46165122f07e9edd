package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

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
 *
 * <p>The inputs wait in a binary min-heap ordered by (key, version order). When the key comparator is a
 * {@link KeyRowComparator} over one integral field (the common {@code BIGINT} or {@code INT} primary
 * key), each input reads its current key once, as a {@code long}, when it advances, and the heap
 * compares those longs instead of calling the comparator on rows.
 */
public final class SortMergeReader implements RecordReader<KeyValue> {
    private final Input[] inputs;
    private final Comparator<InternalRow> keyComparator;
    private final Comparator<KeyValue> versionOrder;
    /** Non-null when keys are one integral field, cached per input as a long. */
    private final KeyRowComparator.IntegralKey integralKey;
    private final MergeFunction mergeFunction;
    /** The inputs that have a current version; heap[0] is the smallest. */
    private final Input[] heap;
    private int heapSize;
    /** Inputs whose current version went into the last result; advanced on the next call. */
    private final Input[] polled;
    private int polledCount;
    private boolean started;
    private boolean batchReturned;

    /**
     * @param keyComparator the key order of the inputs (e.g. {@link KeyRowComparator})
     * @param versionOrder how versions of one key reach the merge function
     */
    public SortMergeReader(List<? extends RecordReader<KeyValue>> readers, Comparator<InternalRow> keyComparator,
            Comparator<KeyValue> versionOrder, MergeFunction mergeFunction) {
        this.keyComparator = keyComparator;
        this.versionOrder = versionOrder;
        this.integralKey = keyComparator instanceof KeyRowComparator k ? k.integralKey() : null;
        this.mergeFunction = mergeFunction;
        this.inputs = new Input[readers.size()];
        for (int i = 0; i < inputs.length; i++) {
            inputs[i] = new Input(readers.get(i), integralKey);
        }
        this.heap = new Input[inputs.length];
        this.polled = new Input[inputs.length];
    }

    @Override
    public RecordIterator<KeyValue> readBatch() {
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
                    push(in);
                }
            }
        }
        while (true) {
            for (int i = 0; i < polledCount; i++) {
                Input in = polled[i];
                polled[i] = null;
                if (in.advance()) {
                    push(in);
                }
            }
            polledCount = 0;
            if (heapSize == 0) {
                return null;
            }
            Input first = pop();
            polled[polledCount++] = first;
            mergeFunction.reset();
            mergeFunction.add(first.current);
            while (heapSize > 0 && sameKey(heap[0], first)) {
                Input same = pop();
                polled[polledCount++] = same;
                mergeFunction.add(same.current);
            }
            KeyValue result = mergeFunction.result();
            if (result != null) {
                return result;
            }
        }
    }

    private int compareKeys(Input a, Input b) {
        if (integralKey == null) {
            return keyComparator.compare(a.current.key(), b.current.key());
        }
        if (a.keyNull || b.keyNull) {
            return a.keyNull == b.keyNull ? 0 : (a.keyNull ? -1 : 1);
        }
        return Long.compare(a.keyValue, b.keyValue);
    }

    private boolean sameKey(Input a, Input b) {
        return compareKeys(a, b) == 0;
    }

    /** The heap's order: key, then the order of versions. */
    private boolean before(Input a, Input b) {
        int c = compareKeys(a, b);
        return (c != 0 ? c : versionOrder.compare(a.current, b.current)) < 0;
    }

    private void push(Input in) {
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Input p = heap[parent];
            if (!before(in, p)) {
                break;
            }
            heap[i] = p;
            i = parent;
        }
        heap[i] = in;
    }

    private Input pop() {
        Input top = heap[0];
        Input last = heap[--heapSize];
        heap[heapSize] = null;
        if (heapSize > 0) {
            int i = 0;
            int half = heapSize >>> 1;
            while (i < half) {
                int child = 2 * i + 1;
                Input c = heap[child];
                int right = child + 1;
                if (right < heapSize && before(heap[right], c)) {
                    child = right;
                    c = heap[child];
                }
                if (!before(c, last)) {
                    break;
                }
                heap[i] = c;
                i = child;
            }
            heap[i] = last;
        }
        return top;
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
        Arrays.fill(heap, null);
        heapSize = 0;
        Arrays.fill(polled, null);
        polledCount = 0;
        if (failure != null) {
            throw failure;
        }
    }

    /** One input: its current batch and current version (with its key as a long, see the class). */
    private static final class Input {
        private final RecordReader<KeyValue> reader;
        private final KeyRowComparator.IntegralKey integralKey;
        private RecordIterator<KeyValue> batch;
        private KeyValue current;
        private boolean keyNull;
        private long keyValue;
        private boolean exhausted;

        Input(RecordReader<KeyValue> reader, KeyRowComparator.IntegralKey integralKey) {
            this.reader = reader;
            this.integralKey = integralKey;
        }

        /** Moves to the next version; false (and releases everything) at the end. */
        boolean advance() throws IOException {
            while (!exhausted) {
                if (batch != null) {
                    KeyValue next = batch.next();
                    if (next != null) {
                        current = next;
                        if (integralKey != null) {
                            InternalRow key = next.key();
                            keyNull = integralKey.isNull(key);
                            keyValue = keyNull ? 0 : integralKey.value(key);
                        }
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
