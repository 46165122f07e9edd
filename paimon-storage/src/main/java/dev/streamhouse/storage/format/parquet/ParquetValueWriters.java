package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.DataGetters;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;


/**
 * Creates the {@link ParquetValueWriter} of each table type, mirroring the layout of
 * {@link ParquetSchemaConverter}. Byte values are handed to Parquet as "reused" binaries so Parquet
 * copies whatever it retains (dictionary, statistics); callers may recycle their buffers after
 * {@code add}.
 */
final class ParquetValueWriters {
    private ParquetValueWriters() {}

    static ParquetValueWriter create(DataType type) {
        switch (type.root()) {
            case BOOLEAN:
                return (c, s, p) -> c.addBoolean(s.booleanAt(p));
            case TINYINT:
                return (c, s, p) -> c.addInteger(s.byteAt(p));
            case SMALLINT:
                return (c, s, p) -> c.addInteger(s.shortAt(p));
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return (c, s, p) -> c.addInteger(s.intAt(p));
            case BIGINT:
                return (c, s, p) -> c.addLong(s.longAt(p));
            case FLOAT:
                return (c, s, p) -> c.addFloat(s.floatAt(p));
            case DOUBLE:
                return (c, s, p) -> c.addDouble(s.doubleAt(p));
            case CHAR:
            case VARCHAR:
                return (c, s, p) -> {
                    BinaryString str = s.stringAt(p);
                    c.addBinary(Binary.fromReusedByteArray(str.rawBytes(), str.rawOffset(), str.byteLength()));
                };
            case BINARY:
            case VARBINARY:
                return (c, s, p) -> c.addBinary(Binary.fromReusedByteArray(s.binaryAt(p)));
            case DECIMAL:
                return decimal((DecimalType) type);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(((TimestampType) type).precision());
            case ARRAY:
                return array((ArrayType) type);
            case MULTISET:
                return multiset((ArrayType) type);
            case MAP:
                return map((MapType) type);
            case ROW:
                return row((RowType) type);
            case VARIANT:
                return ParquetValueWriters::writeVariant;
            default:
                throw new IllegalArgumentException("Cannot write Parquet values of type " + type);
        }
    }

    private static ParquetValueWriter decimal(DecimalType type) {
        int precision = type.precision();
        int scale = type.scale();
        if (precision <= 9) {
            return (c, s, p) -> c.addInteger((int) checkScale(s.decimalAt(p, precision, scale), type).toUnscaledLong());
        } else if (precision <= 18) {
            return (c, s, p) -> c.addLong(checkScale(s.decimalAt(p, precision, scale), type).toUnscaledLong());
        }
        byte[] buffer = new byte[ParquetSchemaConverter.decimalFixedLength(precision)];
        return (c, s, p) -> {
            byte[] unscaled = checkScale(s.decimalAt(p, precision, scale), type).toUnscaledBytes();
            if (unscaled.length > buffer.length) {
                throw new IllegalArgumentException("Cannot write DECIMAL value to Parquet: " + unscaled.length
                        + " unscaled bytes exceed the " + buffer.length + " bytes of " + type);
            }
            // sign-extend the minimal big-endian two's complement to the fixed length
            int pad = buffer.length - unscaled.length;
            byte sign = unscaled.length > 0 && unscaled[0] < 0 ? (byte) -1 : 0;
            for (int i = 0; i < pad; i++) {
                buffer[i] = sign;
            }
            System.arraycopy(unscaled, 0, buffer, pad, unscaled.length);
            c.addBinary(Binary.fromReusedByteArray(buffer));
        };
    }

    private static Decimal checkScale(Decimal value, DecimalType type) {
        if (value.scale() != type.scale()) {
            throw new IllegalArgumentException("Cannot write DECIMAL value " + value + " to Parquet: its scale "
                    + value.scale() + " differs from the column type " + type);
        }
        return value;
    }

    private static ParquetValueWriter timestamp(int precision) {
        if (precision <= 3) {
            return (c, s, p) -> c.addLong(s.timestampAt(p, precision).millisecond());
        } else if (precision <= 6) {
            return (c, s, p) -> c.addLong(s.timestampAt(p, precision).toMicros());
        }
        byte[] buffer = new byte[ParquetTimestamps.INT96_LENGTH];
        return (c, s, p) -> {
            ParquetTimestamps.toInt96(s.timestampAt(p, precision), buffer);
            c.addBinary(Binary.fromReusedByteArray(buffer));
        };
    }

    private static ParquetValueWriter array(ArrayType type) {
        ParquetValueWriter elementWriter = create(type.elementType());
        boolean elementRequired = !type.elementType().isNullable();
        return (c, s, p) -> {
            InternalArray array = s.arrayAt(p);
            c.startGroup();
            if (array.size() > 0) {
                c.startField(ParquetSchemaConverter.LIST_REPEATED_NAME, 0);
                for (int i = 0; i < array.size(); i++) {
                    c.startGroup();
                    writeOptionalField(c, array, i, elementWriter, ParquetSchemaConverter.LIST_ELEMENT_NAME, 0,
                            elementRequired);
                    c.endGroup();
                }
                c.endField(ParquetSchemaConverter.LIST_REPEATED_NAME, 0);
            }
            c.endGroup();
        };
    }

    private static ParquetValueWriter map(MapType type) {
        ParquetValueWriter keyWriter = create(type.keyType());
        ParquetValueWriter valueWriter = create(type.valueType());
        boolean valueRequired = !type.valueType().isNullable();
        return (c, s, p) -> {
            InternalMap map = s.mapAt(p);
            writeKeyValues(c, map.keyArray(), keyWriter, map.valueArray(), valueWriter, valueRequired, map.size());
        };
    }

    /** A multiset is internally (and in Parquet) a map from element to its count. */
    private static ParquetValueWriter multiset(ArrayType type) {
        ParquetValueWriter keyWriter = create(type.elementType());
        ParquetValueWriter countWriter = create(ParquetSchemaConverter.MULTISET_COUNT_TYPE);
        return (c, s, p) -> {
            InternalMap map = s.mapAt(p);
            writeKeyValues(c, map.keyArray(), keyWriter, map.valueArray(), countWriter, true, map.size());
        };
    }

    private static void writeKeyValues(RecordConsumer c, InternalArray keys, ParquetValueWriter keyWriter,
            InternalArray values, ParquetValueWriter valueWriter, boolean valueRequired, int size) {
        c.startGroup();
        if (size > 0) {
            c.startField(ParquetSchemaConverter.MAP_REPEATED_NAME, 0);
            for (int i = 0; i < size; i++) {
                c.startGroup();
                if (keys.isNullAt(i)) {
                    throw new IllegalArgumentException("Cannot write MAP to Parquet: it has a NULL key");
                }
                c.startField(ParquetSchemaConverter.MAP_KEY_NAME, 0);
                keyWriter.write(c, keys, i);
                c.endField(ParquetSchemaConverter.MAP_KEY_NAME, 0);
                writeOptionalField(c, values, i, valueWriter, ParquetSchemaConverter.MAP_VALUE_NAME, 1,
                        valueRequired);
                c.endGroup();
            }
            c.endField(ParquetSchemaConverter.MAP_REPEATED_NAME, 0);
        }
        c.endGroup();
    }

    private static ParquetValueWriter row(RowType type) {
        ParquetRowFieldsWriter fields = new ParquetRowFieldsWriter(type);
        int arity = type.fieldCount();
        return (c, s, p) -> {
            c.startGroup();
            fields.writeFields(c, s.rowAt(p, arity));
            c.endGroup();
        };
    }

    private static void writeVariant(RecordConsumer c, DataGetters s, int p) {
        byte[] packed = s.binaryAt(p);
        int valueLength = VariantBytes.valueLength(packed);
        int metadataOffset = VariantBytes.valueOffset() + valueLength;
        c.startGroup();
        c.startField(ParquetSchemaConverter.VARIANT_VALUE_NAME, 0);
        c.addBinary(Binary.fromReusedByteArray(packed, VariantBytes.valueOffset(), valueLength));
        c.endField(ParquetSchemaConverter.VARIANT_VALUE_NAME, 0);
        c.startField(ParquetSchemaConverter.VARIANT_METADATA_NAME, 1);
        c.addBinary(Binary.fromReusedByteArray(packed, metadataOffset, packed.length - metadataOffset));
        c.endField(ParquetSchemaConverter.VARIANT_METADATA_NAME, 1);
        c.endGroup();
    }

    /** Writes field {@code index} named {@code name} unless the value is null (then it is left out). */
    static void writeOptionalField(RecordConsumer c, DataGetters source, int pos, ParquetValueWriter writer,
            String name, int index, boolean required) {
        if (source.isNullAt(pos)) {
            if (required) {
                throw new IllegalArgumentException(
                        "Cannot write Parquet value: '" + name + "' is NOT NULL but the value is NULL");
            }
            return;
        }
        c.startField(name, index);
        writer.write(c, source, pos);
        c.endField(name, index);
    }
}
