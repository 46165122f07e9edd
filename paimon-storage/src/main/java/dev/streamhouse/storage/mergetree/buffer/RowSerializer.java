package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.types.RowType;

/**
 * Serializes rows of one {@link RowType} into a compact, self-delimiting byte form and reads them
 * back as {@link GenericRow}s of internal values (any type, nested ARRAY/MAP/MULTISET/ROW, VARIANT,
 * NULLs). A row is a null bitmap of {@code ceil(arity / 8)} bytes followed by the non-null fields in
 * order (encodings in {@link FieldCodecs}). The row kind is not serialized. Read values own their bytes,
 * so they stay valid after the source buffer is reused. Instances are immutable and thread-safe.
 */
public final class RowSerializer {
    private final RowType type;
    private final FieldCodec[] codecs;

    public RowSerializer(RowType type) {
        this.type = type;
        this.codecs = new FieldCodec[type.fieldCount()];
        for (int i = 0; i < codecs.length; i++) {
            codecs[i] = FieldCodecs.forType(type.typeAt(i));
        }
    }

    public RowType type() {
        return type;
    }

    public int arity() {
        return codecs.length;
    }

    /** Appends {@code row}; fails if the row has fewer fields than the type. */
    public void serialize(InternalRow row, ByteWriter out) {
        int arity = codecs.length;
        if (row.arity() < arity) {
            throw new IllegalArgumentException("Cannot serialize row " + row + ": it has " + row.arity()
                    + " fields but type " + type.asSQLString() + " has " + arity);
        }
        int bitmap = out.reserve((arity + 7) >>> 3);
        for (int i = 0; i < arity; i++) {
            if (row.isNullAt(i)) {
                out.setBit(bitmap, i);
            } else {
                codecs[i].write(row, i, out);
            }
        }
    }

    /** Reads one row written by {@link #serialize}, leaving {@code in} just past it. */
    public GenericRow deserialize(ByteReader in) {
        return deserializePrefix(in, codecs.length);
    }

    /**
     * Reads the first {@code fields} fields of a row written by {@link #serialize}, as a row of that
     * arity; {@code in} is left inside the row unless all fields were read.
     */
    public GenericRow deserializePrefix(ByteReader in, int fields) {
        int arity = codecs.length;
        byte[] buf = in.buffer();
        int bitmap = in.position();
        in.skip((arity + 7) >>> 3);
        GenericRow row = new GenericRow(fields);
        for (int i = 0; i < fields; i++) {
            if ((buf[bitmap + (i >>> 3)] & (1 << (i & 7))) == 0) {
                row.setField(i, codecs[i].read(in));
            }
        }
        return row;
    }
}
