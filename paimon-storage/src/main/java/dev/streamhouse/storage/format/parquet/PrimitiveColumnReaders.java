package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.data.columnar.BooleanVector;
import dev.streamhouse.storage.data.columnar.ByteVector;
import dev.streamhouse.storage.data.columnar.BytesVector;
import dev.streamhouse.storage.data.columnar.DoubleVector;
import dev.streamhouse.storage.data.columnar.FloatVector;
import dev.streamhouse.storage.data.columnar.HeapVector;
import dev.streamhouse.storage.data.columnar.IntVector;
import dev.streamhouse.storage.data.columnar.LongVector;
import dev.streamhouse.storage.data.columnar.ShortVector;
import dev.streamhouse.storage.data.columnar.TimestampVector;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.TimestampType;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The {@link PrimitiveColumnReader}s, one per physical type, and which one reads a column as a read
 * type. The pairs are those {@link ParquetReadSchema} accepts: INT32 as TINYINT, SMALLINT, INT, DATE,
 * TIME or DECIMAL; INT64 as BIGINT, DECIMAL or TIMESTAMP (with the column's unit); INT96 as TIMESTAMP;
 * FLOAT; DOUBLE; BOOLEAN; BINARY and FIXED_LEN_BYTE_ARRAY as strings, binaries or DECIMAL.
 */
final class PrimitiveColumnReaders {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle DOUBLE =
            MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

    private PrimitiveColumnReaders() {}

    static PrimitiveColumnReader create(ColumnDescriptor descriptor, PageReader pages, DataType readType,
            PrimitiveType fileType) throws IOException {
        PrimitiveTypeName physical = fileType.getPrimitiveTypeName();
        switch (physical) {
            case BOOLEAN:
                return new Booleans(descriptor, pages);
            case INT32:
                return new Ints(descriptor, pages, readType);
            case INT64:
                switch (readType.root()) {
                    case TIMESTAMP_WITHOUT_TIME_ZONE:
                    case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                        return new Int64Timestamps(descriptor, pages,
                                ParquetTimestamps.int64Unit(fileType, ((TimestampType) readType).precision()));
                    default:
                        return new Longs(descriptor, pages);
                }
            case FLOAT:
                return new Floats(descriptor, pages);
            case DOUBLE:
                return new Doubles(descriptor, pages);
            case INT96:
                return new Int96Timestamps(descriptor, pages);
            case BINARY:
                return new Binaries(descriptor, pages, -1);
            case FIXED_LEN_BYTE_ARRAY:
                return new Binaries(descriptor, pages, fileType.getTypeLength());
            default:
                throw new IOException("Cannot read Parquet type " + physical + " as " + readType);
        }
    }

    /** INT32 as INT / DATE / TIME, narrowed to TINYINT / SMALLINT, or widened to a compact DECIMAL. */
    private static final class Ints extends PrimitiveColumnReader {
        private enum Target { INT, SHORT, BYTE, LONG }

        private final Target target;
        private int[] dictionary;
        private int[] scratch = new int[0];

        Ints(ColumnDescriptor descriptor, PageReader pages, DataType readType) throws IOException {
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
                out[at + i] = (int) INT.get(d, p);
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
                out[offset + i] = (long) LONG.get(d, p);
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

    /** INT64 timestamps of one unit (millis, micros or nanos since the epoch). */
    private static final class Int64Timestamps extends PrimitiveColumnReader {
        private final TimeUnit unit;
        private long[] dictionary;

        Int64Timestamps(ColumnDescriptor descriptor, PageReader pages, TimeUnit unit) throws IOException {
            super(descriptor, pages);
            this.unit = unit;
        }

        @Override
        HeapVector newVector(int capacity) {
            return new TimestampVector(capacity, unit != TimeUnit.MILLIS);
        }

        @Override
        void prepareDictionary(Dictionary d) {
            dictionary = new long[d.getMaxId() + 1];
            for (int id = 0; id < dictionary.length; id++) {
                dictionary[id] = d.decodeToLong(id);
            }
        }

        private void set(TimestampVector out, int rowId, long value) {
            switch (unit) {
                case MILLIS:
                    out.set(rowId, value, 0);
                    break;
                case MICROS:
                    out.set(rowId, Math.floorDiv(value, 1_000L), (int) Math.floorMod(value, 1_000L) * 1_000);
                    break;
                default:
                    out.set(rowId, Math.floorDiv(value, 1_000_000L), (int) Math.floorMod(value, 1_000_000L));
            }
        }

        @Override
        void readPlain(HeapVector vector, int offset, int n) throws IOException {
            requirePlain(8L * n);
            TimestampVector out = (TimestampVector) vector;
            for (int i = 0; i < n; i++, dataPosition += 8) {
                set(out, offset + i, (long) LONG.get(data, dataPosition));
            }
        }

        @Override
        void skipPlain(int n) throws IOException {
            requirePlain(8L * n);
            dataPosition += 8 * n;
        }

        @Override
        void readDictionary(HeapVector vector, int offset, int[] ids, int n) {
            TimestampVector out = (TimestampVector) vector;
            for (int i = 0; i < n; i++) {
                set(out, offset + i, dictionary[ids[i]]);
            }
        }

        @Override
        void readFallback(HeapVector vector, int offset, int n) {
            TimestampVector out = (TimestampVector) vector;
            for (int i = 0; i < n; i++) {
                set(out, offset + i, fallback.readLong());
            }
        }
    }

    /** INT96 timestamps: nanos of day and Julian day, as {@link ParquetTimestamps#fromInt96} reads them. */
    private static final class Int96Timestamps extends PrimitiveColumnReader {
        private long[] dictionaryMillis;
        private int[] dictionaryNanos;

        Int96Timestamps(ColumnDescriptor descriptor, PageReader pages) throws IOException {
            super(descriptor, pages);
        }

        @Override
        HeapVector newVector(int capacity) {
            return new TimestampVector(capacity, true);
        }

        @Override
        void prepareDictionary(Dictionary d) throws IOException {
            int size = d.getMaxId() + 1;
            dictionaryMillis = new long[size];
            dictionaryNanos = new int[size];
            for (int id = 0; id < size; id++) {
                byte[] bytes = d.decodeToBinary(id).getBytes();
                if (bytes.length != ParquetTimestamps.INT96_LENGTH) {
                    throw new IOException("INT96 timestamp of " + bytes.length + " bytes in the dictionary of column "
                            + String.join(".", descriptor.getPath()));
                }
                Timestamp t = ParquetTimestamps.fromInt96(bytes, 0);
                dictionaryMillis[id] = t.millisecond();
                dictionaryNanos[id] = t.nanoOfMillisecond();
            }
        }

        @Override
        void readPlain(HeapVector vector, int offset, int n) throws IOException {
            requirePlain((long) ParquetTimestamps.INT96_LENGTH * n);
            TimestampVector out = (TimestampVector) vector;
            for (int i = 0; i < n; i++, dataPosition += ParquetTimestamps.INT96_LENGTH) {
                Timestamp t = ParquetTimestamps.fromInt96(data, dataPosition);
                out.set(offset + i, t.millisecond(), t.nanoOfMillisecond());
            }
        }

        @Override
        void skipPlain(int n) throws IOException {
            requirePlain((long) ParquetTimestamps.INT96_LENGTH * n);
            dataPosition += ParquetTimestamps.INT96_LENGTH * n;
        }

        @Override
        void readDictionary(HeapVector vector, int offset, int[] ids, int n) {
            TimestampVector out = (TimestampVector) vector;
            for (int i = 0; i < n; i++) {
                out.set(offset + i, dictionaryMillis[ids[i]], dictionaryNanos[ids[i]]);
            }
        }

        @Override
        void readFallback(HeapVector vector, int offset, int n) throws IOException {
            TimestampVector out = (TimestampVector) vector;
            for (int i = 0; i < n; i++) {
                byte[] bytes = fallback.readBytes().getBytes();
                if (bytes.length != ParquetTimestamps.INT96_LENGTH) {
                    throw new IOException("INT96 timestamp of " + bytes.length + " bytes in column "
                            + String.join(".", descriptor.getPath()));
                }
                Timestamp t = ParquetTimestamps.fromInt96(bytes, 0);
                out.set(offset + i, t.millisecond(), t.nanoOfMillisecond());
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
                out[offset + i] = (float) FLOAT.get(d, p);
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
                out[offset + i] = (double) DOUBLE.get(d, p);
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

    /**
     * BINARY (PLAIN: 4-byte little-endian length, then the bytes) or FIXED_LEN_BYTE_ARRAY values as
     * slices of the page, or of the chunk's dictionary, which is kept as one byte array.
     */
    private static final class Binaries extends PrimitiveColumnReader {
        /** The length of FIXED_LEN_BYTE_ARRAY values, or -1 for BINARY. */
        private final int fixedLength;
        private byte[] dictionaryBytes;
        private int[] dictionaryOffsets;
        private int[] dictionaryLengths;

        Binaries(ColumnDescriptor descriptor, PageReader pages, int fixedLength) throws IOException {
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
                    length = (int) INT.get(d, p);
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
                int length = (int) INT.get(data, p);
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
}
