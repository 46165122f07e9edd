package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.DataGetters;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The codec of each type. Encoding (little-endian): booleans and TINYINT 1 byte, SMALLINT 2, INT/DATE/TIME
 * 4, BIGINT 8, FLOAT/DOUBLE raw IEEE bits; strings, binaries and VARIANT a var-int length and the bytes;
 * DECIMAL(p ≤ 18) the unscaled long, larger ones length-prefixed two's-complement bytes; TIMESTAMP(p ≤ 3)
 * epoch millis, larger ones millis plus a var-int nano-of-milli; ARRAY a var-int size, a null bitmap and
 * the elements; MAP and MULTISET (element → INT count) the size, then keys and values as array bodies;
 * ROW a nested row body (see {@link RowSerializer}).
 */
final class FieldCodecs {
    private FieldCodecs() {}

    static FieldCodec forType(DataType type) {
        switch (type.root()) {
            case BOOLEAN:
                return codec((s, p, o) -> o.writeByte(s.booleanAt(p) ? 1 : 0), in -> in.readByte() != 0);
            case TINYINT:
                return codec((s, p, o) -> o.writeByte(s.byteAt(p)), ByteReader::readByte);
            case SMALLINT:
                return codec((s, p, o) -> o.writeShort(s.shortAt(p)), ByteReader::readShort);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return codec((s, p, o) -> o.writeInt(s.intAt(p)), ByteReader::readInt);
            case BIGINT:
                return codec((s, p, o) -> o.writeLong(s.longAt(p)), ByteReader::readLong);
            case FLOAT:
                return codec((s, p, o) -> o.writeInt(Float.floatToRawIntBits(s.floatAt(p))),
                        in -> Float.intBitsToFloat(in.readInt()));
            case DOUBLE:
                return codec((s, p, o) -> o.writeLong(Double.doubleToRawLongBits(s.doubleAt(p))),
                        in -> Double.longBitsToDouble(in.readLong()));
            case CHAR:
            case VARCHAR:
                return codec((s, p, o) -> {
                    BinaryString str = s.stringAt(p);
                    o.writeLengthPrefixed(str.rawBytes(), str.rawOffset(), str.byteLength());
                }, in -> BinaryString.fromBytes(in.readLengthPrefixed()));
            case BINARY:
            case VARBINARY:
            case VARIANT:
                return codec((s, p, o) -> {
                    byte[] bytes = s.binaryAt(p);
                    o.writeLengthPrefixed(bytes, 0, bytes.length);
                }, ByteReader::readLengthPrefixed);
            case DECIMAL:
                return decimal((DecimalType) type);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp((TimestampType) type);
            case ARRAY:
                return new ArrayCodec(forType(((ArrayType) type).elementType()));
            case MULTISET:
                return new MapCodec(forType(((ArrayType) type).elementType()),
                        forType(InternalRowUtils.MULTISET_COUNT_TYPE));
            case MAP:
                return new MapCodec(forType(((MapType) type).keyType()), forType(((MapType) type).valueType()));
            case ROW:
                return new NestedRowCodec(new RowSerializer((RowType) type));
            default:
                throw new IllegalArgumentException("Cannot serialize values of type " + type + ": unsupported type");
        }
    }

    private static FieldCodec decimal(DecimalType type) {
        int precision = type.precision();
        int scale = type.scale();
        if (type.isCompact()) {
            return codec((s, p, o) -> o.writeLong(s.decimalAt(p, precision, scale).toUnscaledLong()),
                    in -> Decimal.fromUnscaledLong(in.readLong(), precision, scale));
        }
        return codec((s, p, o) -> {
            byte[] unscaled = s.decimalAt(p, precision, scale).toUnscaledBytes();
            o.writeLengthPrefixed(unscaled, 0, unscaled.length);
        }, in -> Decimal.fromUnscaledBytes(in.readLengthPrefixed(), precision, scale));
    }

    private static FieldCodec timestamp(TimestampType type) {
        int precision = type.precision();
        if (type.isCompact()) {
            return codec((s, p, o) -> o.writeLong(s.timestampAt(p, precision).millisecond()),
                    in -> Timestamp.fromEpochMillis(in.readLong()));
        }
        return codec((s, p, o) -> {
            Timestamp ts = s.timestampAt(p, precision);
            o.writeLong(ts.millisecond());
            o.writeVarInt(ts.nanoOfMillisecond());
        }, in -> Timestamp.fromEpochMillis(in.readLong(), in.readVarInt()));
    }

    /** Writer half of a codec. */
    @FunctionalInterface
    private interface Writer {
        void write(DataGetters source, int pos, ByteWriter out);
    }

    /** Reader half of a codec. */
    @FunctionalInterface
    private interface Reader {
        Object read(ByteReader in);
    }

    private static FieldCodec codec(Writer writer, Reader reader) {
        return new FieldCodec() {
            @Override
            public void write(DataGetters source, int pos, ByteWriter out) {
                writer.write(source, pos, out);
            }

            @Override
            public Object read(ByteReader in) {
                return reader.read(in);
            }
        };
    }

    /** Writes an array body: size, null bitmap, non-null elements. */
    static void writeArrayBody(InternalArray array, FieldCodec element, ByteWriter out) {
        int size = array.size();
        out.writeVarInt(size);
        int bitmap = out.reserve((size + 7) >>> 3);
        for (int i = 0; i < size; i++) {
            if (array.isNullAt(i)) {
                out.setBit(bitmap, i);
            } else {
                element.write(array, i, out);
            }
        }
    }

    static Object[] readArrayBody(FieldCodec element, ByteReader in) {
        int size = in.readVarInt();
        byte[] buf = in.buffer();
        int bitmap = in.position();
        in.skip((size + 7) >>> 3);
        Object[] values = new Object[size];
        for (int i = 0; i < size; i++) {
            if ((buf[bitmap + (i >>> 3)] & (1 << (i & 7))) == 0) {
                values[i] = element.read(in);
            }
        }
        return values;
    }

    private static final class ArrayCodec implements FieldCodec {
        private final FieldCodec element;

        ArrayCodec(FieldCodec element) {
            this.element = element;
        }

        @Override
        public void write(DataGetters source, int pos, ByteWriter out) {
            writeArrayBody(source.arrayAt(pos), element, out);
        }

        @Override
        public Object read(ByteReader in) {
            return new GenericArray(readArrayBody(element, in));
        }
    }

    private static final class MapCodec implements FieldCodec {
        private final FieldCodec key;
        private final FieldCodec value;

        MapCodec(FieldCodec key, FieldCodec value) {
            this.key = key;
            this.value = value;
        }

        @Override
        public void write(DataGetters source, int pos, ByteWriter out) {
            InternalMap map = source.mapAt(pos);
            writeArrayBody(map.keyArray(), key, out);
            writeArrayBody(map.valueArray(), value, out);
        }

        @Override
        public Object read(ByteReader in) {
            Object[] keys = readArrayBody(key, in);
            Object[] values = readArrayBody(value, in);
            Map<Object, Object> map = new LinkedHashMap<>(keys.length * 2);
            for (int i = 0; i < keys.length; i++) {
                map.put(keys[i], values[i]);
            }
            return new GenericMap(map);
        }
    }

    private static final class NestedRowCodec implements FieldCodec {
        private final RowSerializer serializer;

        NestedRowCodec(RowSerializer serializer) {
            this.serializer = serializer;
        }

        @Override
        public void write(DataGetters source, int pos, ByteWriter out) {
            serializer.serialize(source.rowAt(pos, serializer.arity()), out);
        }

        @Override
        public Object read(ByteReader in) {
            return serializer.deserialize(in);
        }
    }
}
