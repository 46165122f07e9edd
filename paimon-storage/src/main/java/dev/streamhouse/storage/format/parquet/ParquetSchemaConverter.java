package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.PlainType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

import java.util.ArrayList;
import java.util.List;

/**
 * Converts a table row type to the Parquet schema of a data file (docs/format.md §8.1).
 *
 * <p>Contract: the result is the message {@code paimon_schema}; every field carries a field id
 * (top-level and nested-row fields their {@link DataField#id()}, array elements and map keys/values
 * ids derived from their container's id and nesting depth); the repeated {@code list} and
 * {@code key_value} groups carry none. Repetition is {@code required} for NOT NULL types, else
 * {@code optional}; map keys (and multiset elements) are always {@code required}.
 */
final class ParquetSchemaConverter {
    static final String MESSAGE_NAME = "paimon_schema";
    static final String LIST_REPEATED_NAME = "list";
    static final String LIST_ELEMENT_NAME = "element";
    static final String MAP_REPEATED_NAME = "key_value";
    static final String MAP_KEY_NAME = "key";
    static final String MAP_VALUE_NAME = "value";
    static final String VARIANT_VALUE_NAME = "value";
    static final String VARIANT_METADATA_NAME = "metadata";

    /** Integer.MAX_VALUE / 4: the base of derived element/key/value ids. */
    private static final int NESTED_ID_BASE = 536_870_911;
    private static final int NESTED_ID_STRIDE = 1024;
    /** The count of a multiset element, the value of its map form. */
    static final DataType MULTISET_COUNT_TYPE = new PlainType(false, DataTypeRoot.INTEGER);

    private ParquetSchemaConverter() {}

    /** The Parquet schema of a data file holding rows of {@code rowType}. */
    static MessageType toMessageType(RowType rowType) {
        return new MessageType(MESSAGE_NAME, toParquetFields(rowType));
    }

    private static List<Type> toParquetFields(RowType rowType) {
        List<Type> fields = new ArrayList<>(rowType.fieldCount());
        for (DataField field : rowType.fields()) {
            fields.add(toParquetType(field.name(), field.type(), field.id(), 0));
        }
        return fields;
    }

    /** Id of an array element at {@code depth} (1 for a top-level array's element). */
    static int arrayElementId(int arrayId, int depth) {
        return NESTED_ID_BASE + arrayId * NESTED_ID_STRIDE + depth;
    }

    static int mapKeyId(int mapId, int depth) {
        return NESTED_ID_BASE - mapId * NESTED_ID_STRIDE - depth;
    }

    static int mapValueId(int mapId, int depth) {
        return NESTED_ID_BASE + mapId * NESTED_ID_STRIDE + depth;
    }

    /** Bytes of the FIXED_LEN_BYTE_ARRAY holding a decimal: least L with 2^(8L-1) &gt;= 10^precision. */
    static int decimalFixedLength(int precision) {
        int length = 1;
        while (Math.pow(2.0, 8 * length - 1) < Math.pow(10.0, precision)) {
            length++;
        }
        return length;
    }

    /**
     * The Parquet type of a value of {@code type} named {@code name} with field id {@code id};
     * {@code depth} counts the ARRAY/MAP levels above it within its column (0 for the column itself),
     * and {@code id} of an element/key/value is that of its container column until a ROW restarts it.
     */
    private static Type toParquetType(String name, DataType type, int id, int depth) {
        Repetition repetition = type.isNullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
        switch (type.root()) {
            case CHAR:
            case VARCHAR:
                return primitive(PrimitiveTypeName.BINARY, repetition, LogicalTypeAnnotation.stringType(), id, name);
            case BOOLEAN:
                return primitive(PrimitiveTypeName.BOOLEAN, repetition, null, id, name);
            case BINARY:
            case VARBINARY:
                return primitive(PrimitiveTypeName.BINARY, repetition, null, id, name);
            case DECIMAL:
                return decimal((DecimalType) type, repetition, id, name);
            case TINYINT:
                return primitive(PrimitiveTypeName.INT32, repetition, LogicalTypeAnnotation.intType(8, true), id, name);
            case SMALLINT:
                return primitive(PrimitiveTypeName.INT32, repetition, LogicalTypeAnnotation.intType(16, true), id, name);
            case INTEGER:
                return primitive(PrimitiveTypeName.INT32, repetition, null, id, name);
            case BIGINT:
                return primitive(PrimitiveTypeName.INT64, repetition, null, id, name);
            case FLOAT:
                return primitive(PrimitiveTypeName.FLOAT, repetition, null, id, name);
            case DOUBLE:
                return primitive(PrimitiveTypeName.DOUBLE, repetition, null, id, name);
            case DATE:
                return primitive(PrimitiveTypeName.INT32, repetition, LogicalTypeAnnotation.dateType(), id, name);
            case TIME_WITHOUT_TIME_ZONE:
                return primitive(PrimitiveTypeName.INT32, repetition,
                        LogicalTypeAnnotation.timeType(true, TimeUnit.MILLIS), id, name);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp((TimestampType) type, repetition, id, name);
            case ARRAY: {
                Type element = toParquetType(LIST_ELEMENT_NAME, ((ArrayType) type).elementType(), id, depth + 1)
                        .withId(arrayElementId(id, depth + 1));
                return Types.buildGroup(repetition)
                        .as(LogicalTypeAnnotation.listType())
                        .addField(Types.repeatedGroup().addField(element).named(LIST_REPEATED_NAME))
                        .id(id)
                        .named(name);
            }
            case MULTISET:
                return map(name, ((ArrayType) type).elementType(), MULTISET_COUNT_TYPE, repetition, id, depth);
            case MAP:
                return map(name, ((MapType) type).keyType(), ((MapType) type).valueType(), repetition, id, depth);
            case ROW:
                return Types.buildGroup(repetition).addFields(toParquetFields((RowType) type).toArray(new Type[0]))
                        .id(id)
                        .named(name);
            case VARIANT:
                return Types.buildGroup(repetition)
                        .addField(Types.required(PrimitiveTypeName.BINARY).named(VARIANT_VALUE_NAME))
                        .addField(Types.required(PrimitiveTypeName.BINARY).named(VARIANT_METADATA_NAME))
                        .id(id)
                        .named(name);
            default:
                throw new IllegalArgumentException(
                        "Cannot convert column '" + name + "' to Parquet: unsupported type " + type);
        }
    }

    private static Type map(String name, DataType keyType, DataType valueType, Repetition repetition, int id,
            int depth) {
        // Parquet map keys cannot be null, so the key is required whatever the declared nullability.
        Type key = toParquetType(MAP_KEY_NAME, keyType.notNull(), id, depth + 1).withId(mapKeyId(id, depth + 1));
        Type value = toParquetType(MAP_VALUE_NAME, valueType, id, depth + 1).withId(mapValueId(id, depth + 1));
        return Types.buildGroup(repetition)
                .as(LogicalTypeAnnotation.mapType())
                .addField(Types.repeatedGroup()
                        .as(LogicalTypeAnnotation.MapKeyValueTypeAnnotation.getInstance())
                        .addField(key)
                        .addField(value)
                        .named(MAP_REPEATED_NAME))
                .id(id)
                .named(name);
    }

    private static Type decimal(DecimalType type, Repetition repetition, int id, String name) {
        LogicalTypeAnnotation annotation = LogicalTypeAnnotation.decimalType(type.scale(), type.precision());
        if (type.precision() <= 9) {
            return primitive(PrimitiveTypeName.INT32, repetition, annotation, id, name);
        } else if (type.precision() <= 18) {
            return primitive(PrimitiveTypeName.INT64, repetition, annotation, id, name);
        }
        return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
                .length(decimalFixedLength(type.precision()))
                .as(annotation)
                .id(id)
                .named(name);
    }

    private static Type timestamp(TimestampType type, Repetition repetition, int id, String name) {
        boolean adjustedToUtc = type.withLocalTimeZone();
        if (type.precision() <= 3) {
            return primitive(PrimitiveTypeName.INT64, repetition,
                    LogicalTypeAnnotation.timestampType(adjustedToUtc, TimeUnit.MILLIS), id, name);
        } else if (type.precision() <= 6) {
            return primitive(PrimitiveTypeName.INT64, repetition,
                    LogicalTypeAnnotation.timestampType(adjustedToUtc, TimeUnit.MICROS), id, name);
        }
        return primitive(PrimitiveTypeName.INT96, repetition, null, id, name);
    }

    private static Type primitive(PrimitiveTypeName physical, Repetition repetition, LogicalTypeAnnotation annotation,
            int id, String name) {
        return Types.primitive(physical, repetition).as(annotation).id(id).named(name);
    }
}
