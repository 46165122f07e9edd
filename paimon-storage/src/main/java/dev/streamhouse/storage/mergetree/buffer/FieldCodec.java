package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.DataGetters;

/** Writes and reads the non-null value of one type; nulls are handled by the enclosing bitmap. */
interface FieldCodec {

    /** Appends the (non-null) value at {@code pos} of {@code source}. */
    void write(DataGetters source, int pos, ByteWriter out);

    /** Reads one value written by {@link #write} as an internal object that owns its bytes. */
    Object read(ByteReader in);
}
