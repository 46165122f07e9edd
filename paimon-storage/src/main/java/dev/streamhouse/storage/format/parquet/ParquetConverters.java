package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * Builds the Parquet converter tree that materializes values of a read type from a requested
 * Parquet type (as produced by {@link ParquetReadSchema}, so the two are known to match).
 */
final class ParquetConverters {
    private ParquetConverters() {}

    static Converter create(DataType readType, Type fileType, ValueSink sink) {
        switch (readType.root()) {
            case ROW:
                return new RowConverter((RowType) readType, fileType.asGroupType(), sink);
            case ARRAY:
                return new ListConverter(((ArrayType) readType).elementType(), fileType.asGroupType(), sink);
            case MULTISET:
                return MapConverter.multiset(((ArrayType) readType).elementType(), fileType.asGroupType(), sink);
            case MAP:
                return MapConverter.map((MapType) readType, fileType.asGroupType(), sink);
            case VARIANT:
                return new VariantConverter(fileType.asGroupType(), sink);
            default:
                return ParquetPrimitiveConverters.create(readType, fileType.asPrimitiveType(), sink);
        }
    }

    /** A converter for a requested column that is not part of the read type: ignores everything. */
    static Converter discarding(Type fileType) {
        if (fileType.isPrimitive()) {
            return new PrimitiveConverter() {
                @Override
                public void addBinary(Binary value) {}

                @Override
                public void addBoolean(boolean value) {}

                @Override
                public void addDouble(double value) {}

                @Override
                public void addFloat(float value) {}

                @Override
                public void addInt(int value) {}

                @Override
                public void addLong(long value) {}
            };
        }
        GroupType group = fileType.asGroupType();
        Converter[] children = new Converter[group.getFieldCount()];
        for (int i = 0; i < children.length; i++) {
            children[i] = discarding(group.getType(i));
        }
        return new GroupConverter() {
            @Override
            public Converter getConverter(int fieldIndex) {
                return children[fieldIndex];
            }

            @Override
            public void start() {}

            @Override
            public void end() {}
        };
    }
}
