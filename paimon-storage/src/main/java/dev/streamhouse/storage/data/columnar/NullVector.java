package dev.streamhouse.storage.data.columnar;

/** A column that is null in every row, e.g. one the data file does not have. */
public final class NullVector extends ColumnVector {
    public static final NullVector INSTANCE = new NullVector();

    private NullVector() {}

    @Override
    public boolean isNullAt(int rowId) {
        return true;
    }

    @Override
    public boolean hasNulls(int rows) {
        return rows > 0;
    }
}
