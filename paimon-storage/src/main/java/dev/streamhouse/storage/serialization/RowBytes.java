package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.buffer.ByteReader;
import dev.streamhouse.storage.mergetree.buffer.ByteWriter;
import dev.streamhouse.storage.mergetree.buffer.RowSerializer;
import dev.streamhouse.storage.types.RowType;

import java.util.Arrays;

/**
 * Rows of one {@link RowType} as bytes and back, for engines that ship rows between tasks without a
 * serializer of their own for the type (e.g. a sink writing many tables whose types change while it
 * runs): one byte of row kind, then the fields in the write buffer's compact form (a null bitmap, then
 * the non-null fields; every type, nested ones included). The bytes are a transient form, not stored
 * anywhere; reading needs the same row type. Not thread-safe (it reuses its buffer).
 */
public final class RowBytes {
    private final RowSerializer serializer;
    private final ByteWriter buffer = new ByteWriter(256);
    private final ByteReader reader = new ByteReader();

    public RowBytes(RowType type) {
        this.serializer = new RowSerializer(type);
    }

    public RowType type() {
        return serializer.type();
    }

    /** The row, with its kind, as bytes of its own. */
    public byte[] toBytes(InternalRow row) {
        buffer.reset();
        buffer.writeByte(row.rowKind().toByteValue());
        serializer.serialize(row, buffer);
        return Arrays.copyOf(buffer.buffer(), buffer.position());
    }

    /**
     * The row {@link #toBytes} made, with its kind; its values own their bytes.
     *
     * @throws IllegalArgumentException if the bytes do not hold one row of this type
     */
    public GenericRow fromBytes(byte[] bytes) {
        try {
            reader.reset(bytes, 0);
            RowKind kind = RowKind.fromByteValue(reader.readByte());
            GenericRow row = serializer.deserialize(reader);
            if (reader.position() != bytes.length) {
                throw new IllegalArgumentException((bytes.length - reader.position()) + " bytes left over");
            }
            row.setRowKind(kind);
            return row;
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Cannot read a row of type " + type().asSQLString() + " from "
                    + bytes.length + " bytes: " + e.getMessage(), e);
        }
    }
}
