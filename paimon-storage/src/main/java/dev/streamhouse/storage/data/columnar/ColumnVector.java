package dev.streamhouse.storage.data.columnar;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.Timestamp;

/**
 * The values of one column for the rows of a {@link ColumnarBatch}, addressed by row id
 * ({@code 0 <= rowId < batch.numRows()}). Values use the internal representations of
 * {@link dev.streamhouse.storage.data.DataGetters}; a vector answers only the getters of its type
 * and throws {@link UnsupportedOperationException} for the others. As with rows, calling a getter
 * at a null position is undefined: check {@link #isNullAt} first.
 *
 * <p>Vectors are filled once by one reader and then only read, by the consumer of the batch (which
 * may be another thread, once the batch is safely handed over).
 */
public abstract class ColumnVector {

    public abstract boolean isNullAt(int rowId);

    /** Whether any of the first {@code rows} positions is null (false lets callers skip null checks). */
    public abstract boolean hasNulls(int rows);

    public boolean getBoolean(int rowId) {
        throw unsupported("BOOLEAN");
    }

    public byte getByte(int rowId) {
        throw unsupported("TINYINT");
    }

    public short getShort(int rowId) {
        throw unsupported("SMALLINT");
    }

    /** INT, DATE and TIME values. */
    public int getInt(int rowId) {
        throw unsupported("INT");
    }

    public long getLong(int rowId) {
        throw unsupported("BIGINT");
    }

    public float getFloat(int rowId) {
        throw unsupported("FLOAT");
    }

    public double getDouble(int rowId) {
        throw unsupported("DOUBLE");
    }

    /** A view of the value's UTF-8 bytes (not a copy); immutable as long as the batch is not released. */
    public BinaryString getString(int rowId) {
        throw unsupported("STRING");
    }

    /** A fresh copy of the bytes (BINARY, VARBINARY, VARIANT), which the caller may keep and modify. */
    public byte[] getBinary(int rowId) {
        throw unsupported("BINARY");
    }

    public Decimal getDecimal(int rowId, int precision, int scale) {
        throw unsupported("DECIMAL");
    }

    public Timestamp getTimestamp(int rowId, int precision) {
        throw unsupported("TIMESTAMP");
    }

    public InternalArray getArray(int rowId) {
        throw unsupported("ARRAY");
    }

    public InternalMap getMap(int rowId) {
        throw unsupported("MAP");
    }

    public InternalRow getRow(int rowId) {
        throw unsupported("ROW");
    }

    private UnsupportedOperationException unsupported(String type) {
        return new UnsupportedOperationException("Cannot read a " + type + " value from " + getClass().getSimpleName()
                + ": the column holds values of another type");
    }
}
