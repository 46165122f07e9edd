package dev.streamhouse.storage.casting;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.data.columnar.ColumnVector;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.TimestampType;

/**
 * A column read from a data file in the type it was written with, presented in its current type: each
 * getter reads the file value and converts it with the {@link ColumnCast} (the vector counterpart of
 * {@link CastedRow}). Only for casts that {@link ColumnCast#convertsValues() convert values}; the others
 * need no wrapper. Copies nothing; valid as long as the wrapped vector.
 */
public final class CastedVector extends ColumnVector {
    private final ColumnVector source;
    private final ColumnCast cast;
    private final DataType fileType;

    public CastedVector(ColumnVector source, ColumnCast cast) {
        if (!cast.convertsValues()) {
            throw new IllegalArgumentException("Cannot wrap a vector in " + cast + ": it converts no values");
        }
        this.source = source;
        this.cast = cast;
        this.fileType = cast.fileReadType();
    }

    private Object converted(int rowId) {
        return cast.apply(fileValue(rowId));
    }

    private Object fileValue(int rowId) {
        switch (fileType.root()) {
            case TINYINT:
                return source.getByte(rowId);
            case SMALLINT:
                return source.getShort(rowId);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return source.getInt(rowId);
            case BIGINT:
                return source.getLong(rowId);
            case FLOAT:
                return source.getFloat(rowId);
            case DOUBLE:
                return source.getDouble(rowId);
            case CHAR:
            case VARCHAR:
                return source.getString(rowId);
            case BINARY:
            case VARBINARY:
                return source.getBinary(rowId);
            case DECIMAL: {
                DecimalType d = (DecimalType) fileType;
                return source.getDecimal(rowId, d.precision(), d.scale());
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return source.getTimestamp(rowId, ((TimestampType) fileType).precision());
            default:
                throw new UnsupportedOperationException("Cannot convert values of type " + fileType);
        }
    }

    @Override
    public boolean isNullAt(int rowId) {
        return source.isNullAt(rowId);
    }

    @Override
    public boolean hasNulls(int rows) {
        return source.hasNulls(rows);
    }

    @Override
    public short getShort(int rowId) {
        return (Short) converted(rowId);
    }

    @Override
    public int getInt(int rowId) {
        return (Integer) converted(rowId);
    }

    @Override
    public long getLong(int rowId) {
        return (Long) converted(rowId);
    }

    @Override
    public float getFloat(int rowId) {
        return (Float) converted(rowId);
    }

    @Override
    public double getDouble(int rowId) {
        return (Double) converted(rowId);
    }

    @Override
    public BinaryString getString(int rowId) {
        return (BinaryString) converted(rowId);
    }

    @Override
    public byte[] getBinary(int rowId) {
        return (byte[]) converted(rowId);
    }

    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
        return (Decimal) converted(rowId);
    }

    @Override
    public Timestamp getTimestamp(int rowId, int precision) {
        return (Timestamp) converted(rowId);
    }

    @Override
    public InternalArray getArray(int rowId) {
        return source.getArray(rowId);
    }

    @Override
    public InternalMap getMap(int rowId) {
        return source.getMap(rowId);
    }

    @Override
    public InternalRow getRow(int rowId) {
        return source.getRow(rowId);
    }
}
