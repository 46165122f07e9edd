package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.columnar.BooleanVector;
import dev.streamhouse.storage.data.columnar.DoubleVector;
import dev.streamhouse.storage.data.columnar.FloatVector;
import dev.streamhouse.storage.data.columnar.HeapVector;
import dev.streamhouse.storage.data.columnar.LongVector;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.TimestampType;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.io.IOException;

/**
 * Which {@link PrimitiveColumnReader} reads a column as a read type, and the readers of INT64,
 * FLOAT, DOUBLE and BOOLEAN ({@link Int32ColumnReader}, {@link BinaryColumnReader} and
 * {@link TimestampColumnReaders} have files of their own). There is one reader per physical type so
 * that values are decoded into primitive arrays without boxing. The pairs are those
 * {@link ParquetReadSchema} accepts: INT32 as TINYINT, SMALLINT, INT, DATE, TIME or DECIMAL; INT64
 * as BIGINT, DECIMAL or TIMESTAMP (with the column's unit); INT96 as TIMESTAMP; FLOAT; DOUBLE;
 * BOOLEAN; BINARY and FIXED_LEN_BYTE_ARRAY as strings, binaries or DECIMAL.
 */
final class PrimitiveColumnReaders {
    private PrimitiveColumnReaders() {}

    static PrimitiveColumnReader create(ColumnDescriptor descriptor, PageReader pages, DataType readType,
            PrimitiveType fileType) throws IOException {
        PrimitiveTypeName physical = fileType.getPrimitiveTypeName();
        switch (physical) {
            case BOOLEAN:
                return new Booleans(descriptor, pages);
            case INT32:
                return new Int32ColumnReader(descriptor, pages, readType);
            case INT64:
                switch (readType.root()) {
                    case TIMESTAMP_WITHOUT_TIME_ZONE:
                    case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                        return new TimestampColumnReaders.Int64(descriptor, pages,
                                ParquetTimestamps.int64Unit(fileType, ((TimestampType) readType).precision()));
                    default:
                        return new Longs(descriptor, pages);
                }
            case FLOAT:
                return new Floats(descriptor, pages);
            case DOUBLE:
                return new Doubles(descriptor, pages);
            case INT96:
                return new TimestampColumnReaders.Int96(descriptor, pages);
            case BINARY:
                return new BinaryColumnReader(descriptor, pages, -1);
            case FIXED_LEN_BYTE_ARRAY:
                return new BinaryColumnReader(descriptor, pages, fileType.getTypeLength());
            default:
                throw new IOException("Cannot read Parquet type " + physical + " as " + readType);
        }
    }

    /** INT64 as BIGINT or a compact DECIMAL. */
    private static final class Longs extends PrimitiveColumnReader {
        private long[] dictionary;

        Longs(ColumnDescriptor descriptor, PageReader pages) throws IOException {
            super(descriptor, pages);
        }

        @Override
        HeapVector newVector(int capacity) {
            return new LongVector(capacity);
        }

        @Override
        void prepareDictionary(Dictionary d) {
            dictionary = new long[d.getMaxId() + 1];
            for (int id = 0; id < dictionary.length; id++) {
                dictionary[id] = d.decodeToLong(id);
            }
        }

        @Override
        void readPlain(HeapVector vector, int offset, int n) throws IOException {
            requirePlain(8L * n);
            long[] out = ((LongVector) vector).values();
            byte[] d = data;
            int p = dataPosition;
            for (int i = 0; i < n; i++, p += 8) {
                out[offset + i] = (long) LittleEndianViews.LONG.get(d, p);
            }
            dataPosition = p;
        }

        @Override
        void skipPlain(int n) throws IOException {
            requirePlain(8L * n);
            dataPosition += 8 * n;
        }

        @Override
        void readDictionary(HeapVector vector, int offset, int[] ids, int n) {
            long[] out = ((LongVector) vector).values();
            long[] dict = dictionary;
            for (int i = 0; i < n; i++) {
                out[offset + i] = dict[ids[i]];
            }
        }

        @Override
        void readFallback(HeapVector vector, int offset, int n) {
            long[] out = ((LongVector) vector).values();
            for (int i = 0; i < n; i++) {
                out[offset + i] = fallback.readLong();
            }
        }
    }

    private static final class Floats extends PrimitiveColumnReader {
        private float[] dictionary;

        Floats(ColumnDescriptor descriptor, PageReader pages) throws IOException {
            super(descriptor, pages);
        }

        @Override
        HeapVector newVector(int capacity) {
            return new FloatVector(capacity);
        }

        @Override
        void prepareDictionary(Dictionary d) {
            dictionary = new float[d.getMaxId() + 1];
            for (int id = 0; id < dictionary.length; id++) {
                dictionary[id] = d.decodeToFloat(id);
            }
        }

        @Override
        void readPlain(HeapVector vector, int offset, int n) throws IOException {
            requirePlain(4L * n);
            float[] out = ((FloatVector) vector).values();
            byte[] d = data;
            int p = dataPosition;
            for (int i = 0; i < n; i++, p += 4) {
                out[offset + i] = (float) LittleEndianViews.FLOAT.get(d, p);
            }
            dataPosition = p;
        }

        @Override
        void skipPlain(int n) throws IOException {
            requirePlain(4L * n);
            dataPosition += 4 * n;
        }

        @Override
        void readDictionary(HeapVector vector, int offset, int[] ids, int n) {
            float[] out = ((FloatVector) vector).values();
            for (int i = 0; i < n; i++) {
                out[offset + i] = dictionary[ids[i]];
            }
        }

        @Override
        void readFallback(HeapVector vector, int offset, int n) {
            float[] out = ((FloatVector) vector).values();
            for (int i = 0; i < n; i++) {
                out[offset + i] = fallback.readFloat();
            }
        }
    }

    private static final class Doubles extends PrimitiveColumnReader {
        private double[] dictionary;

        Doubles(ColumnDescriptor descriptor, PageReader pages) throws IOException {
            super(descriptor, pages);
        }

        @Override
        HeapVector newVector(int capacity) {
            return new DoubleVector(capacity);
        }

        @Override
        void prepareDictionary(Dictionary d) {
            dictionary = new double[d.getMaxId() + 1];
            for (int id = 0; id < dictionary.length; id++) {
                dictionary[id] = d.decodeToDouble(id);
            }
        }

        @Override
        void readPlain(HeapVector vector, int offset, int n) throws IOException {
            requirePlain(8L * n);
            double[] out = ((DoubleVector) vector).values();
            byte[] d = data;
            int p = dataPosition;
            for (int i = 0; i < n; i++, p += 8) {
                out[offset + i] = (double) LittleEndianViews.DOUBLE.get(d, p);
            }
            dataPosition = p;
        }

        @Override
        void skipPlain(int n) throws IOException {
            requirePlain(8L * n);
            dataPosition += 8 * n;
        }

        @Override
        void readDictionary(HeapVector vector, int offset, int[] ids, int n) {
            double[] out = ((DoubleVector) vector).values();
            for (int i = 0; i < n; i++) {
                out[offset + i] = dictionary[ids[i]];
            }
        }

        @Override
        void readFallback(HeapVector vector, int offset, int n) {
            double[] out = ((DoubleVector) vector).values();
            for (int i = 0; i < n; i++) {
                out[offset + i] = fallback.readDouble();
            }
        }
    }

    /** PLAIN booleans are bit-packed, least significant bit first. */
    private static final class Booleans extends PrimitiveColumnReader {
        private int bit;

        Booleans(ColumnDescriptor descriptor, PageReader pages) throws IOException {
            super(descriptor, pages);
        }

        @Override
        HeapVector newVector(int capacity) {
            return new BooleanVector(capacity);
        }

        @Override
        void prepareDictionary(Dictionary d) throws IOException {
            throw new IOException("Column " + String.join(".", descriptor.getPath())
                    + " has a dictionary, which BOOLEAN columns cannot have");
        }

        @Override
        void startPlainPage() {
            bit = 0;
        }

        @Override
        void readPlain(HeapVector vector, int offset, int n) throws IOException {
            requirePlain(((long) bit + n + 7) / 8);
            boolean[] out = ((BooleanVector) vector).values();
            for (int i = 0; i < n; i++) {
                out[offset + i] = ((data[dataPosition + (bit >>> 3)] >>> (bit & 7)) & 1) != 0;
                bit++;
            }
            dataPosition += bit >>> 3;
            bit &= 7;
        }

        @Override
        void skipPlain(int n) throws IOException {
            requirePlain(((long) bit + n + 7) / 8);
            bit += n;
            dataPosition += bit >>> 3;
            bit &= 7;
        }

        @Override
        void readDictionary(HeapVector vector, int offset, int[] ids, int n) {
            throw new IllegalStateException("BOOLEAN columns have no dictionary");
        }

        @Override
        void readFallback(HeapVector vector, int offset, int n) {
            boolean[] out = ((BooleanVector) vector).values();
            for (int i = 0; i < n; i++) {
                out[offset + i] = fallback.readBoolean();
            }
        }
    }

}
