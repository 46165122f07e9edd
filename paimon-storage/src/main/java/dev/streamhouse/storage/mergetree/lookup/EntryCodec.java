package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.buffer.ByteReader;
import dev.streamhouse.storage.mergetree.buffer.ByteWriter;
import dev.streamhouse.storage.mergetree.buffer.RowSerializer;
import dev.streamhouse.storage.types.RowType;

/**
 * The byte form of one record in a lookup file, self-delimiting: the key row ({@link RowSerializer}),
 * the sequence number (8 bytes), the row kind (1 byte), the row position in the data file (8 bytes) and
 * the value row. Keys come first so a search decodes only keys until it finds its own. Stateless and
 * thread-safe.
 */
final class EntryCodec {
    private final RowSerializer keys;
    private final RowSerializer values;

    EntryCodec(RowType keyType, RowType valueType) {
        this.keys = new RowSerializer(keyType);
        this.values = new RowSerializer(valueType);
    }

    void write(KeyValue record, long rowPosition, ByteWriter out) {
        keys.serialize(record.key(), out);
        out.writeLong(record.sequenceNumber());
        out.writeByte(record.valueKind().toByteValue());
        out.writeLong(rowPosition);
        values.serialize(record.value(), out);
    }

    /** Reads the key of the entry at {@code in}, leaving {@code in} just past it. */
    GenericRow readKey(ByteReader in) {
        return keys.deserialize(in);
    }

    /** Reads the rest of the entry whose key {@link #readKey} just read. */
    LookupEntry readAfterKey(GenericRow key, ByteReader in) {
        long sequenceNumber = in.readLong();
        RowKind kind = RowKind.fromByteValue(in.readByte());
        long rowPosition = in.readLong();
        GenericRow value = values.deserialize(in);
        return new LookupEntry(key, sequenceNumber, kind, value, rowPosition);
    }
}
