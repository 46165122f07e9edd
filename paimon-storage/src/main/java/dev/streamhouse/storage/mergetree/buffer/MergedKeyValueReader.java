package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Turns a sorted record cursor into merged key-values: for each key, its versions (ascending sequence
 * number, or the version order when one is given) are fed to the merge function and its non-null
 * result is emitted once. All records come in a single batch; every emitted object is freshly
 * allocated, so results stay valid after the reader moves on.
 */
final class MergedKeyValueReader implements RecordReader<KeyValue>, RecordIterator<KeyValue> {
    private final RecordCursor cursor;
    private final RowSerializer keySerializer;
    private final RowSerializer valueSerializer;
    private final SerializedKeyComparator keyComparator;
    private final MergeFunction mergeFunction;
    private final Comparator<KeyValue> versionOrder;
    private final Runnable onClose;
    private final ByteReader reader = new ByteReader();
    private final List<KeyValue> versions = new ArrayList<>();
    private byte[] groupKey = new byte[64];
    private boolean batchReturned;
    private boolean started;
    private boolean hasCurrent;
    private boolean closed;

    MergedKeyValueReader(RecordCursor cursor, RowSerializer keySerializer, RowSerializer valueSerializer,
            SerializedKeyComparator keyComparator, MergeFunction mergeFunction, Comparator<KeyValue> versionOrder,
            Runnable onClose) {
        this.cursor = cursor;
        this.keySerializer = keySerializer;
        this.valueSerializer = valueSerializer;
        this.keyComparator = keyComparator;
        this.mergeFunction = mergeFunction;
        this.versionOrder = versionOrder;
        this.onClose = onClose;
    }

    @Override
    public RecordIterator<KeyValue> readBatch() {
        if (batchReturned) {
            return null;
        }
        batchReturned = true;
        return this;
    }

    @Override
    public KeyValue next() throws IOException {
        if (closed) {
            throw new IllegalStateException("Cannot read the write buffer: the merged reader is closed");
        }
        if (!started) {
            started = true;
            hasCurrent = cursor.advance();
        }
        while (hasCurrent) {
            KeyValue result = mergeNextKey();
            if (result != null) {
                return result;
            }
        }
        return null;
    }

    /** Merges all versions of the current key and moves past them. */
    private KeyValue mergeNextKey() throws IOException {
        byte[] buf = cursor.buffer();
        int offset = cursor.offset();
        int keyLength = RecordLayout.keyLength(buf, offset);
        if (groupKey.length < keyLength) {
            groupKey = new byte[Math.max(keyLength, groupKey.length * 2)];
        }
        System.arraycopy(buf, offset + RecordLayout.KEY_OFFSET, groupKey, 0, keyLength);
        GenericRow key = keySerializer.deserialize(reader.reset(buf, offset + RecordLayout.KEY_OFFSET));
        mergeFunction.reset();
        versions.clear();
        do {
            KeyValue version = materialize(key, cursor.buffer(), cursor.offset());
            if (versionOrder == null) {
                mergeFunction.add(version);
            } else {
                versions.add(version);
            }
            hasCurrent = cursor.advance();
        } while (hasCurrent
                && keyComparator.compare(groupKey, 0, cursor.buffer(), cursor.offset() + RecordLayout.KEY_OFFSET) == 0);
        if (versionOrder != null) {
            // List.sort is stable: versions the order considers equal stay in sequence-number order.
            versions.sort(versionOrder);
            for (KeyValue version : versions) {
                mergeFunction.add(version);
            }
            versions.clear();
        }
        return mergeFunction.result();
    }

    private KeyValue materialize(GenericRow key, byte[] buf, int offset) {
        return RecordLayout.toKeyValue(key, buf, offset, valueSerializer, reader);
    }

    @Override
    public void releaseBatch() {}

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            cursor.close();
        } finally {
            onClose.run();
        }
    }
}
