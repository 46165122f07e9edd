package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Matches a read row type against a file's Parquet schema by name (top level and inside ROWs) and
 * produces the requested schema: the file's own types, reduced to the read columns, in file order.
 * A read column the file lacks is simply not requested (it reads as null). A column whose physical
 * layout cannot be read as the read type fails with an {@link IOException} naming file and column.
 */
final class ParquetReadSchema {
    private ParquetReadSchema() {}

    static MessageType requestedSchema(RowType readType, MessageType fileSchema, Path file) throws IOException {
        return new MessageType(fileSchema.getName(), clipFields(readType, fileSchema, file, ""));
    }

    private static List<Type> clipFields(RowType readType, GroupType fileGroup, Path file, String prefix)
            throws IOException {
        List<Type> out = new ArrayList<>();
        for (Type fileField : fileGroup.getFields()) {
            int pos = readType.fieldIndex(fileField.getName());
            if (pos >= 0) {
                out.add(clip(readType.typeAt(pos), fileField, file, prefix + fileField.getName(), false));
            }
        }
        return out;
    }

    /**
     * The element type of a LIST group (standard three-level layout, or the legacy two-level one
     * where the repeated field itself is the element).
     */
    static Type listElement(GroupType list) {
        Type repeated = list.getType(0);
        return isThreeLevel(list, repeated) ? repeated.asGroupType().getType(0) : repeated;
    }

    static boolean isThreeLevel(GroupType list, Type repeated) {
        return !repeated.isPrimitive()
                && repeated.asGroupType().getFieldCount() == 1
                && !repeated.getName().equals("array")
                && !repeated.getName().equals(list.getName() + "_tuple");
    }

    private static Type clip(DataType readType, Type fileType, Path file, String column, boolean repeatedElement)
            throws IOException {
        if (!repeatedElement && fileType.isRepetition(Type.Repetition.REPEATED)) {
            throw mismatch(file, column, "a repeated field", readType);
        }
        switch (readType.root()) {
            case ROW: {
                GroupType group = requireGroup(fileType, null, file, column, readType);
                List<Type> fields = clipFields((RowType) readType, group, file, column + ".");
                if (fields.isEmpty()) {
                    // still read one column: it tells whether the row itself is null
                    fields = List.of(group.getType(0));
                }
                return group.withNewFields(fields);
            }
            case ARRAY: {
                GroupType list = requireGroup(fileType, LogicalTypeAnnotation.listType(), file, column, readType);
                Type repeated = list.getType(0);
                if (list.getFieldCount() != 1 || !repeated.isRepetition(Type.Repetition.REPEATED)) {
                    throw mismatch(file, column, "a malformed LIST group", readType);
                }
                DataType elementType = ((ArrayType) readType).elementType();
                if (isThreeLevel(list, repeated)) {
                    GroupType wrapper = repeated.asGroupType();
                    Type element = clip(elementType, wrapper.getType(0), file, column + ".element", false);
                    return list.withNewFields(wrapper.withNewFields(element));
                }
                return list.withNewFields(clip(elementType, repeated, file, column + ".element", true));
            }
            case MULTISET:
                return clipMap(((ArrayType) readType).elementType(), ParquetSchemaConverter.MULTISET_COUNT_TYPE,
                        fileType, file, column, readType);
            case MAP:
                return clipMap(((MapType) readType).keyType(), ((MapType) readType).valueType(), fileType, file,
                        column, readType);
            case VARIANT: {
                GroupType group = requireGroup(fileType, null, file, column, readType);
                if (!isBinaryField(group, ParquetSchemaConverter.VARIANT_VALUE_NAME)
                        || !isBinaryField(group, ParquetSchemaConverter.VARIANT_METADATA_NAME)) {
                    throw mismatch(file, column, "a group without binary value and metadata", readType);
                }
                return group;
            }
            default:
                if (fileType.isPrimitive() && canRead(readType, fileType.asPrimitiveType())) {
                    return fileType;
                }
                throw mismatch(file, column, describe(fileType), readType);
        }
    }

    private static Type clipMap(DataType keyType, DataType valueType, Type fileType, Path file, String column,
            DataType readType) throws IOException {
        GroupType map = requireGroup(fileType, LogicalTypeAnnotation.mapType(), file, column, readType);
        Type repeated = map.getType(0);
        if (map.getFieldCount() != 1 || repeated.isPrimitive() || !repeated.isRepetition(Type.Repetition.REPEATED)
                || repeated.asGroupType().getFieldCount() != 2) {
            throw mismatch(file, column, "a malformed MAP group", readType);
        }
        GroupType keyValue = repeated.asGroupType();
        Type key = clip(keyType, keyValue.getType(0), file, column + ".key", false);
        Type value = clip(valueType, keyValue.getType(1), file, column + ".value", false);
        return map.withNewFields(keyValue.withNewFields(key, value));
    }

    private static GroupType requireGroup(Type fileType, LogicalTypeAnnotation expected, Path file, String column,
            DataType readType) throws IOException {
        if (fileType.isPrimitive()) {
            throw mismatch(file, column, describe(fileType), readType);
        }
        LogicalTypeAnnotation actual = fileType.getLogicalTypeAnnotation();
        boolean listOrMap = actual == LogicalTypeAnnotation.listType() || actual == LogicalTypeAnnotation.mapType()
                || actual instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation;
        boolean matches = expected == null
                ? !listOrMap
                : expected.equals(actual) || (expected == LogicalTypeAnnotation.mapType()
                        && actual instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation);
        if (!matches || fileType.asGroupType().getFieldCount() == 0) {
            throw mismatch(file, column, "a group" + (actual == null ? "" : " (" + actual + ")"), readType);
        }
        return fileType.asGroupType();
    }

    private static boolean isBinaryField(GroupType group, String name) {
        if (!group.containsField(name)) {
            return false;
        }
        Type t = group.getType(name);
        return t.isPrimitive() && t.asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BINARY;
    }

    private static boolean canRead(DataType readType, PrimitiveType physical) {
        PrimitiveTypeName name = physical.getPrimitiveTypeName();
        switch (readType.root()) {
            case BOOLEAN:
                return name == PrimitiveTypeName.BOOLEAN;
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return name == PrimitiveTypeName.INT32;
            case BIGINT:
                return name == PrimitiveTypeName.INT64;
            case FLOAT:
                return name == PrimitiveTypeName.FLOAT;
            case DOUBLE:
                return name == PrimitiveTypeName.DOUBLE;
            case CHAR:
            case VARCHAR:
                return name == PrimitiveTypeName.BINARY;
            case BINARY:
            case VARBINARY:
                return name == PrimitiveTypeName.BINARY || name == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
            case DECIMAL: {
                LogicalTypeAnnotation a = physical.getLogicalTypeAnnotation();
                boolean scaleMatches = !(a instanceof DecimalLogicalTypeAnnotation)
                        || ((DecimalLogicalTypeAnnotation) a).getScale() == ((DecimalType) readType).scale();
                return scaleMatches && (name == PrimitiveTypeName.INT32 || name == PrimitiveTypeName.INT64
                        || name == PrimitiveTypeName.BINARY || name == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return name == PrimitiveTypeName.INT64 || name == PrimitiveTypeName.INT96;
            default:
                return false;
        }
    }

    private static String describe(Type fileType) {
        if (!fileType.isPrimitive()) {
            return "a group";
        }
        PrimitiveType p = fileType.asPrimitiveType();
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        return p.getPrimitiveTypeName() + (a == null ? "" : " (" + a + ")");
    }

    private static IOException mismatch(Path file, String column, String stored, DataType readType) {
        return new IOException("Cannot read Parquet file " + file + ": column '" + column + "' is stored as "
                + stored + ", which cannot be read as " + readType.asSQLString());
    }
}
