package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.data.columnar.HeapVector;
import dev.streamhouse.storage.data.columnar.TimestampVector;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;

import java.io.IOException;

/** The readers of TIMESTAMP columns: INT64 with the column's unit, and legacy INT96. */
final class TimestampColumnReaders {
    private TimestampColumnReaders() {}

    /** INT64 timestamps of one unit (millis, micros or nanos since the epoch). */
    static final class Int64 extends PrimitiveColumnReader {
        private final TimeUnit unit;
        private long[] dictionary;

        Int64(ColumnDescriptor descriptor, PageReader pages, TimeUnit unit) throws IOException {
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
                set(out, offset + i, (long) LittleEndianViews.LONG.get(data, dataPosition));
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
    static final class Int96 extends PrimitiveColumnReader {
        private long[] dictionaryMillis;
        private int[] dictionaryNanos;

        Int96(ColumnDescriptor descriptor, PageReader pages) throws IOException {
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
}
