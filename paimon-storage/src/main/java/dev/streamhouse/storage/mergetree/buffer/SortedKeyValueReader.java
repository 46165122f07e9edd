package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;

/**
 * Turns a sorted record cursor into key-values without merging: every buffered record is emitted
 * once, in (key, sequence number) order, so a key may appear several times. All records come in a
 * single batch; every emitted object is freshly allocated.
 */
final class SortedKeyValueReader implements RecordReader<KeyValue>, RecordIterator<KeyValue> {
    private final RecordCursor cursor;
    private final RowSerializer keySerializer;
    private final RowSerializer valueSerializer;
    private final Runnable onClose;
    private final ByteReader reader = new ByteReader();
    private boolean batchReturned;
    private boolean closed;

    SortedKeyValueReader(RecordCursor cursor, RowSerializer keySerializer, RowSerializer valueSerializer,
            Runnable onClose) {
        this.cursor = cursor;
        this.keySerializer = keySerializer;
        this.valueSerializer = valueSerializer;
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
            throw new IllegalStateException("Cannot read the write buffer: the sorted reader is closed");
        }
        if (!cursor.advance()) {
            return null;
        }
        byte[] buf = cursor.buffer();
        int offset = cursor.offset();
        GenericRow key = keySerializer.deserialize(reader.reset(buf, offset + RecordLayout.KEY_OFFSET));
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
