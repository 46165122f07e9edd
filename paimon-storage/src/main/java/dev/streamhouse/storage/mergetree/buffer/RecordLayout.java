package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;

/**
 * The byte layout of one buffered record, identical in pages and spill files:
 * {@code [int payloadLength][long sequenceNumber][byte rowKind][int keyLength][key row][value row]}
 * (little-endian; rows as written by {@link RowSerializer}). The payload length counts everything after
 * the length field. In pages, the header and the key of a record are always contiguous in one page.
 */
final class RecordLayout {
    static final int LENGTH_OFFSET = 0;
    static final int SEQUENCE_OFFSET = 4;
    static final int KIND_OFFSET = 12;
    static final int KEY_LENGTH_OFFSET = 13;
    static final int KEY_OFFSET = 17;
    /** Bytes before the key. */
    static final int HEADER_SIZE = KEY_OFFSET;

    private RecordLayout() {}

    /** Total bytes of the record starting at {@code offset}, length field included. */
    static int recordSize(byte[] buf, int offset) {
        return 4 + (int) ByteWriter.INTS.get(buf, offset + LENGTH_OFFSET);
    }

    static long sequenceNumber(byte[] buf, int offset) {
        return (long) ByteWriter.LONGS.get(buf, offset + SEQUENCE_OFFSET);
    }

    static RowKind rowKind(byte[] buf, int offset) {
        return RowKind.fromByteValue(buf[offset + KIND_OFFSET]);
    }

    static int keyLength(byte[] buf, int offset) {
        return (int) ByteWriter.INTS.get(buf, offset + KEY_LENGTH_OFFSET);
    }

    /**
     * The record at {@code offset} as a fresh key-value with the already-deserialized {@code key}; the
     * value row carries the record's kind.
     */
    static KeyValue toKeyValue(GenericRow key, byte[] buf, int offset, RowSerializer valueSerializer,
            ByteReader reader) {
        RowKind kind = rowKind(buf, offset);
        int valueOffset = offset + KEY_OFFSET + keyLength(buf, offset);
        GenericRow value = valueSerializer.deserialize(reader.reset(buf, valueOffset));
        value.setRowKind(kind);
        return new KeyValue().replace(key, sequenceNumber(buf, offset), kind, value);
    }
}
