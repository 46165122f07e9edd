package dev.streamhouse.storage.data.columnar;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;

import java.util.Arrays;

/**
 * Variable-length values (strings, binaries, non-compact and binary-stored decimals) as slices of
 * byte arrays the reader owns: a decoded page, or the decoded dictionary of a column chunk, so
 * values are never copied while a batch is filled. {@link #getString} is a view of the slice;
 * {@link #getBinary} copies it.
 */
public final class BytesVector extends HeapVector {
    private final byte[][] arrays;
    private final int[] offsets;
    private final int[] lengths;

    public BytesVector(int capacity) {
        super(capacity);
        arrays = new byte[capacity][];
        offsets = new int[capacity];
        lengths = new int[capacity];
    }


    /** Points {@code rowId} at {@code bytes[offset, offset + length)}; the bytes must stay unchanged. */
    public void set(int rowId, byte[] bytes, int offset, int length) {
        arrays[rowId] = bytes;
        offsets[rowId] = offset;
        lengths[rowId] = length;
    }

    @Override
    public BinaryString getString(int rowId) {
        return BinaryString.fromBytes(arrays[rowId], offsets[rowId], lengths[rowId]);
    }

    @Override
    public byte[] getBinary(int rowId) {
        int offset = offsets[rowId];
        return Arrays.copyOfRange(arrays[rowId], offset, offset + lengths[rowId]);
    }

    /** Decimals stored as big-endian two's-complement unscaled bytes. */
    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
        return Decimal.fromUnscaledBytes(getBinary(rowId), precision, scale);
    }
}
