package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.columnar.ByteVector;
import dev.streamhouse.storage.data.columnar.HeapVector;
import dev.streamhouse.storage.data.columnar.IntVector;
import dev.streamhouse.storage.data.columnar.LongVector;
import dev.streamhouse.storage.data.columnar.ShortVector;
import dev.streamhouse.storage.types.DataType;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.page.PageReader;

import java.io.IOException;

/** INT32 as INT / DATE / TIME, narrowed to TINYINT / SMALLINT, or widened to a compact DECIMAL. */
final class Int32ColumnReader extends PrimitiveColumnReader {
    private enum Target { INT, SHORT, BYTE, LONG }

    private final Target target;
    private int[] dictionary;
    private int[] scratch = new int[0];

    Int32ColumnReader(ColumnDescriptor descriptor, PageReader pages, DataType readType) throws IOException {
        super(descriptor, pages);
        switch (readType.root()) {
            case TINYINT:
                target = Target.BYTE;
                break;
            case SMALLINT:
                target = Target.SHORT;
                break;
            case DECIMAL:
                target = Target.LONG;
                break;
            default:
                target = Target.INT;
        }
    }

    @Override
    HeapVector newVector(int capacity) {
        switch (target) {
            case BYTE:
                return new ByteVector(capacity);
            case SHORT:
                return new ShortVector(capacity);
            case LONG:
                return new LongVector(capacity);
            default:
                return new IntVector(capacity);
        }
    }

    @Override
    void prepareDictionary(Dictionary d) {
        dictionary = new int[d.getMaxId() + 1];
        for (int id = 0; id < dictionary.length; id++) {
            dictionary[id] = d.decodeToInt(id);
        }
    }

    /** Where to decode ints: the vector itself, or a scratch array to narrow or widen from. */
    private int[] ints(HeapVector vector, int n) {
        if (target == Target.INT) {
            return ((IntVector) vector).values();
        }
        if (scratch.length < n) {
            scratch = new int[Math.max(n, 1024)];
        }
        return scratch;
    }

    private void store(HeapVector vector, int offset, int[] from, int fromOffset, int n) {
        switch (target) {
            case BYTE: {
                byte[] to = ((ByteVector) vector).values();
                for (int i = 0; i < n; i++) {
                    to[offset + i] = (byte) from[fromOffset + i];
                }
                break;
            }
            case SHORT: {
                short[] to = ((ShortVector) vector).values();
                for (int i = 0; i < n; i++) {
                    to[offset + i] = (short) from[fromOffset + i];
                }
                break;
            }
            case LONG: {
                long[] to = ((LongVector) vector).values();
                for (int i = 0; i < n; i++) {
                    to[offset + i] = from[fromOffset + i];
                }
                break;
            }
            default:
                // decoded in place
        }
    }

    @Override
    void readPlain(HeapVector vector, int offset, int n) throws IOException {
        requirePlain(4L * n);
        int[] out = ints(vector, n);
        int at = target == Target.INT ? offset : 0;
        byte[] d = data;
        int p = dataPosition;
        for (int i = 0; i < n; i++, p += 4) {
            out[at + i] = (int) LittleEndianViews.INT.get(d, p);
        }
        dataPosition = p;
        store(vector, offset, out, at, n);
    }

    @Override
    void skipPlain(int n) throws IOException {
        requirePlain(4L * n);
        dataPosition += 4 * n;
    }

    @Override
    void readDictionary(HeapVector vector, int offset, int[] ids, int n) {
        int[] out = ints(vector, n);
        int at = target == Target.INT ? offset : 0;
        int[] dict = dictionary;
        for (int i = 0; i < n; i++) {
            out[at + i] = dict[ids[i]];
        }
        store(vector, offset, out, at, n);
    }

    @Override
    void readFallback(HeapVector vector, int offset, int n) {
        int[] out = ints(vector, n);
        int at = target == Target.INT ? offset : 0;
        for (int i = 0; i < n; i++) {
            out[at + i] = fallback.readInteger();
        }
        store(vector, offset, out, at, n);
    }
}
