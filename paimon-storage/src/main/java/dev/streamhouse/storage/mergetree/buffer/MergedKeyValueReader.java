package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Turns a sorted record cursor into merged key-values: for each key, its versions (ascending sequence
 * number, or the version order when one is given) are fed to the merge function and its non-null
 * result is emitted once. All records come in a single batch. Unless the reader reuses objects, every
 * emitted object is freshly allocated, so results stay valid after the reader moves on; a reader that
 * reuses objects returns, where the merge function's result is the last version, one key-value whose
 * rows read that version in place, valid until the next call.
 */
final class MergedKeyValueReader implements RecordReader<KeyValue>, RecordIterator<KeyValue> {
    private final RecordCursor cursor;
    private final RowSerializer keySerializer;
    private final RowSerializer valueSerializer;
    private final SerializedKeyComparator keyComparator;
    private final MergeFunction mergeFunction;
    private final Comparator<KeyValue> versionOrder;
    private final Runnable onClose;
    /** The reused key-value and its rows, or null when every result is freshly allocated. */
    private final KeyValue reused;
    private final SerializedRowView keyView;
    private final SerializedRowView valueView;
    private final ByteReader reader = new ByteReader();
    private final List<KeyValue> versions = new ArrayList<>();
    private byte[] groupKey = new byte[64];
    /** The latest version of the current key, copied, when only the last version counts. */
    private byte[] lastVersion = new byte[128];
    private boolean batchReturned;
    private boolean started;
    private boolean hasCurrent;
    private boolean closed;

    MergedKeyValueReader(RecordCursor cursor, RowSerializer keySerializer, RowSerializer valueSerializer,
            SerializedKeyComparator keyComparator, MergeFunction mergeFunction, Comparator<KeyValue> versionOrder,
            boolean reuseObjects, Runnable onClose) {
        this.cursor = cursor;
        this.keySerializer = keySerializer;
        this.valueSerializer = valueSerializer;
        this.keyComparator = keyComparator;
        this.mergeFunction = mergeFunction;
        this.versionOrder = versionOrder;
        this.onClose = onClose;
        this.reused = reuseObjects ? new KeyValue() : null;
        this.keyView = reuseObjects ? new SerializedRowView(keySerializer.type()) : null;
        this.valueView = reuseObjects ? new SerializedRowView(valueSerializer.type()) : null;
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
        if (versionOrder == null && mergeFunction.resultIsLastVersion()) {
            return lastVersionOfNextKey();
        }
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
        } while (hasCurrent && currentKeyEquals(groupKey, 0, keyLength));
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

    /**
     * The merge of a function whose result is the last version: the versions before it are skipped
     * undecoded (the cursor may reuse its buffer on advance, so the latest one is copied), and only the
     * last one is decoded and added.
     */
    private KeyValue lastVersionOfNextKey() throws IOException {
        do {
            byte[] buf = cursor.buffer();
            int offset = cursor.offset();
            int size = RecordLayout.recordSize(buf, offset);
            if (lastVersion.length < size) {
                lastVersion = new byte[Math.max(size, lastVersion.length * 2)];
            }
            System.arraycopy(buf, offset, lastVersion, 0, size);
            hasCurrent = cursor.advance();
        } while (hasCurrent
                && currentKeyEquals(lastVersion, RecordLayout.KEY_OFFSET, RecordLayout.keyLength(lastVersion, 0)));
        mergeFunction.reset();
        if (reused == null) {
            GenericRow key = keySerializer.deserialize(reader.reset(lastVersion, RecordLayout.KEY_OFFSET));
            mergeFunction.add(materialize(key, lastVersion, 0));
        } else {
            int valueOffset = keyView.pointTo(lastVersion, RecordLayout.KEY_OFFSET);
            valueView.pointTo(lastVersion, valueOffset);
            RowKind kind = RecordLayout.rowKind(lastVersion, 0);
            valueView.setRowKind(kind);
            mergeFunction.add(reused.replace(keyView, RecordLayout.sequenceNumber(lastVersion, 0), kind, valueView));
        }
        return mergeFunction.result();
    }

    /**
     * Whether the cursor's current record has the key serialized at {@code key[offset, offset + length)}:
     * equal bytes are equal keys; other bytes are other keys unless a floating-point field makes the
     * comparator decide.
     */
    private boolean currentKeyEquals(byte[] key, int offset, int length) {
        byte[] buf = cursor.buffer();
        int recordOffset = cursor.offset();
        int keyOffset = recordOffset + RecordLayout.KEY_OFFSET;
        if (RecordLayout.keyLength(buf, recordOffset) == length
                && Arrays.equals(key, offset, offset + length, buf, keyOffset, keyOffset + length)) {
            return true;
        }
        return !keyComparator.bytesDecideEquality() && keyComparator.compare(key, offset, buf, keyOffset) == 0;
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
