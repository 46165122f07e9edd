package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.TimestampType;

import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

import java.util.function.Function;

/**
 * Converters of Parquet primitive values to internal values. Byte-backed values (strings, binaries,
 * binary decimals, INT96 timestamps) support dictionaries: each dictionary entry is decoded once and
 * the immutable result shared by all rows using it (byte[] values are copied per row, as callers may
 * modify them).
 */
final class ParquetPrimitiveConverters {
    private ParquetPrimitiveConverters() {}

    static PrimitiveConverter create(DataType readType, PrimitiveType fileType, ValueSink sink) {
        PrimitiveTypeName physical = fileType.getPrimitiveTypeName();
        switch (readType.root()) {
            case BOOLEAN:
                return new PrimitiveConverter() {
                    @Override
                    public void addBoolean(boolean value) {
                        sink.set(value);
                    }
                };
            case TINYINT:
                return ints(v -> sink.set((byte) v));
            case SMALLINT:
                return ints(v -> sink.set((short) v));
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return ints(sink::set);
            case BIGINT:
                return longs(sink::set);
            case FLOAT:
                return new PrimitiveConverter() {
                    @Override
                    public void addFloat(float value) {
                        sink.set(value);
                    }
                };
            case DOUBLE:
                return new PrimitiveConverter() {
                    @Override
                    public void addDouble(double value) {
                        sink.set(value);
                    }
                };
            case CHAR:
            case VARCHAR:
                return new BinaryValueConverter(sink, b -> BinaryString.fromBytes(b.getBytes()), false);
            case BINARY:
            case VARBINARY:
                return new BinaryValueConverter(sink, Binary::getBytes, true);
            case DECIMAL:
                return decimal((DecimalType) readType, physical, sink);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                if (physical == PrimitiveTypeName.INT96) {
                    return new BinaryValueConverter(sink, b -> {
                        byte[] bytes = b.getBytesUnsafe();
                        if (bytes.length != ParquetTimestamps.INT96_LENGTH) {
                            throw new IllegalArgumentException("INT96 timestamp of " + bytes.length + " bytes");
                        }
                        return ParquetTimestamps.fromInt96(bytes, 0);
                    }, false);
                }
                TimeUnit unit = ParquetTimestamps.int64Unit(fileType, ((TimestampType) readType).precision());
                return longs(v -> sink.set(ParquetTimestamps.fromInt64(v, unit)));
            default:
                throw new IllegalArgumentException("Cannot read Parquet primitive values as " + readType);
        }
    }

    private static PrimitiveConverter decimal(DecimalType type, PrimitiveTypeName physical, ValueSink sink) {
        int precision = type.precision();
        int scale = type.scale();
        switch (physical) {
            case INT32:
                return ints(v -> sink.set(Decimal.fromUnscaledLong(v, precision, scale)));
            case INT64:
                return longs(v -> sink.set(Decimal.fromUnscaledLong(v, precision, scale)));
            default:
                return new BinaryValueConverter(
                        sink, b -> Decimal.fromUnscaledBytes(b.getBytesUnsafe(), precision, scale), false);
        }
    }

    /** An int consumer that does not box before the conversion. */
    private interface IntSink {
        void set(int value);
    }

    private interface LongSink {
        void set(long value);
    }

    private static PrimitiveConverter ints(IntSink sink) {
        return new PrimitiveConverter() {
            @Override
            public void addInt(int value) {
                sink.set(value);
            }
        };
    }

    private static PrimitiveConverter longs(LongSink sink) {
        return new PrimitiveConverter() {
            @Override
            public void addLong(long value) {
                sink.set(value);
            }
        };
    }

    /** Converts binaries with a function, caching the decoded dictionary. */
    private static final class BinaryValueConverter extends PrimitiveConverter {
        private final ValueSink sink;
        private final Function<Binary, Object> decode;
        private final boolean copyPerRow;
        private Object[] dictionary;

        BinaryValueConverter(ValueSink sink, Function<Binary, Object> decode, boolean copyPerRow) {
            this.sink = sink;
            this.decode = decode;
            this.copyPerRow = copyPerRow;
        }

        @Override
        public boolean hasDictionarySupport() {
            return true;
        }

        @Override
        public void setDictionary(Dictionary dict) {
            dictionary = new Object[dict.getMaxId() + 1];
            for (int id = 0; id <= dict.getMaxId(); id++) {
                dictionary[id] = decode.apply(dict.decodeToBinary(id));
            }
        }

        @Override
        public void addValueFromDictionary(int dictionaryId) {
            Object value = dictionary[dictionaryId];
            sink.set(copyPerRow ? ((byte[]) value).clone() : value);
        }

        @Override
        public void addBinary(Binary value) {
            sink.set(decode.apply(value));
        }
    }
}
