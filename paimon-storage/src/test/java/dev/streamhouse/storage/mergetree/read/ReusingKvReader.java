package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.util.List;
import java.util.Random;

/**
 * An in-memory reader that behaves like the worst legal reader: one KeyValue, key row and value row
 * reused for every record, batches of random size, and records poisoned when their batch is released
 * (so a consumer that keeps a record too long sees garbage instead of silently correct data).
 */
final class ReusingKvReader implements RecordReader<KeyValue> {
    private final List<GenericRow[]> records; // {key, value} with the kind/seq stored separately
    private final List<long[]> seqAndKind;
    private final Random random;
    private final KeyValue reuse = new KeyValue();
    private final GenericRow key;
    private final GenericRow value;
    private int next;
    private boolean batchOpen;
    boolean closed;

    ReusingKvReader(List<GenericRow[]> records, List<long[]> seqAndKind, int keyArity, int valueArity, Random random) {
        this.records = records;
        this.seqAndKind = seqAndKind;
        this.random = random;
        this.key = new GenericRow(keyArity);
        this.value = new GenericRow(valueArity);
    }

    @Override
    public RecordIterator<KeyValue> readBatch() {
        if (batchOpen) {
            throw new AssertionError("readBatch() called before the previous batch was released");
        }
        if (next >= records.size()) {
            return null;
        }
        int end = Math.min(records.size(), next + 1 + random.nextInt(4));
        batchOpen = true;
        return new RecordIterator<KeyValue>() {
            @Override
            public KeyValue next() {
                if (next >= end) {
                    return null;
                }
                GenericRow[] r = records.get(next);
                long[] sk = seqAndKind.get(next);
                next++;
                for (int i = 0; i < key.arity(); i++) {
                    key.setField(i, r[0].field(i));
                }
                for (int i = 0; i < value.arity(); i++) {
                    value.setField(i, r[1].field(i));
                }
                return reuse.replace(key, sk[0], RowKind.fromByteValue((byte) sk[1]), value);
            }

            @Override
            public void releaseBatch() {
                batchOpen = false;
                for (int i = 0; i < key.arity(); i++) {
                    key.setField(i, null);
                }
                for (int i = 0; i < value.arity(); i++) {
                    value.setField(i, null);
                }
                reuse.replace(key, -1, RowKind.DELETE, value);
            }
        };
    }

    @Override
    public void close() {
        closed = true;
    }
}
