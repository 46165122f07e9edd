package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.columnar.BytesVector;
import dev.streamhouse.storage.data.columnar.HeapVector;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.io.api.Binary;

import java.io.IOException;

/**
 * BINARY (PLAIN: 4-byte little-endian length, then the bytes) or FIXED_LEN_BYTE_ARRAY values as
 * slices of the page, or of the chunk's dictionary, which is kept as one byte array.
 */
final class BinaryColumnReader extends PrimitiveColumnReader {
    /** The length of FIXED_LEN_BYTE_ARRAY values, or -1 for BINARY. */
    private final int fixedLength;
    private byte[] dictionaryBytes;
    private int[] dictionaryOffsets;
    private int[] dictionaryLengths;

    BinaryColumnReader(ColumnDescriptor descriptor, PageReader pages, int fixedLength) throws IOException {
        super(descriptor, pages);
        this.fixedLength = fixedLength;
    }

    @Override
    HeapVector newVector(int capacity) {
        return new BytesVector(capacity);
    }

    @Override
    void prepareDictionary(Dictionary d) {
        int size = d.getMaxId() + 1;
        Binary[] values = new Binary[size];
        long total = 0;
        for (int id = 0; id < size; id++) {
            values[id] = d.decodeToBinary(id);
            total += values[id].length();
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("Dictionary of column " + String.join(".", descriptor.getPath())
                    + " holds more than 2 GB");
        }
        dictionaryBytes = new byte[(int) total];
        dictionaryOffsets = new int[size];
        dictionaryLengths = new int[size];
        int at = 0;
        for (int id = 0; id < size; id++) {
            byte[] bytes = values[id].getBytesUnsafe();
            int length = values[id].length();
            System.arraycopy(bytes, 0, dictionaryBytes, at, length);
            dictionaryOffsets[id] = at;
            dictionaryLengths[id] = length;
            at += length;
        }
    }

    @Override
    void readPlain(HeapVector vector, int offset, int n) throws IOException {
        BytesVector out = (BytesVector) vector;
        byte[] d = data;
        int p = dataPosition;
        int end = dataEnd;
        for (int i = 0; i < n; i++) {
            int length;
            if (fixedLength >= 0) {
                length = fixedLength;
            } else {
                if (p + 4 > end) {
                    throw plainEnded();
                }
                length = (int) LittleEndianViews.INT.get(d, p);
                p += 4;
            }
            if (length < 0 || p + length > end) {
                throw plainEnded();
            }
            out.set(offset + i, d, p, length);
            p += length;
        }
        dataPosition = p;
    }

    private IOException plainEnded() {
        return new IOException("Page of column " + String.join(".", descriptor.getPath())
                + " ends in the middle of its values");
    }

    @Override
    void skipPlain(int n) throws IOException {
        if (fixedLength >= 0) {
            requirePlain((long) fixedLength * n);
            dataPosition += fixedLength * n;
            return;
        }
        int p = dataPosition;
        for (int i = 0; i < n; i++) {
            if (p + 4 > dataEnd) {
                throw plainEnded();
            }
            int length = (int) LittleEndianViews.INT.get(data, p);
            if (length < 0 || p + 4 + length > dataEnd) {
                throw plainEnded();
            }
            p += 4 + length;
        }
        dataPosition = p;
    }

    @Override
    void readDictionary(HeapVector vector, int offset, int[] ids, int n) {
        BytesVector out = (BytesVector) vector;
        for (int i = 0; i < n; i++) {
            int id = ids[i];
            out.set(offset + i, dictionaryBytes, dictionaryOffsets[id], dictionaryLengths[id]);
        }
    }

    @Override
    void readFallback(HeapVector vector, int offset, int n) {
        BytesVector out = (BytesVector) vector;
        for (int i = 0; i < n; i++) {
            byte[] bytes = fallback.readBytes().getBytes();
            out.set(offset + i, bytes, 0, bytes.length);
        }
    }
}
