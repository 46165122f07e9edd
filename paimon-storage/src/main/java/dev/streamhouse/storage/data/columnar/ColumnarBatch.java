package dev.streamhouse.storage.data.columnar;

import dev.streamhouse.storage.types.RowType;

/**
 * Rows held as one {@link ColumnVector} per field of a row type: row {@code r} of the batch has
 * field {@code f} at {@code vector(f)} position {@code r}. A batch may carry each row's kind in a
 * vector of {@code _VALUE_KIND} bytes (rows of primary-key data files) and each row's position in its
 * data file (for deletion vectors).
 *
 * <p>The {@link #type()} describes the fields; field names are those the vectors were read by.
 *
 * <p>Derived batches ({@link #project}, {@link #withVectors}, {@link #withKinds}) share the vectors,
 * copy nothing and are valid exactly as long as this batch.
 */
public final class ColumnarBatch {
    private final RowType type;
    private final ColumnVector[] vectors;
    private final int numRows;
    private final ColumnVector kinds;
    private final long firstRowPosition;
    private final long[] rowPositions;

    /**
     * @param firstRowPosition the position in its file of row 0; rows are consecutive in the file
     */
    public ColumnarBatch(RowType type, ColumnVector[] vectors, int numRows, long firstRowPosition) {
        this(type, vectors, numRows, null, firstRowPosition, null);
    }

    /** A batch whose rows are not consecutive in their file: {@code rowPositions[r]} is row r's position. */
    public ColumnarBatch(RowType type, ColumnVector[] vectors, int numRows, long[] rowPositions) {
        this(type, vectors, numRows, null, 0, rowPositions);
    }

    private ColumnarBatch(RowType type, ColumnVector[] vectors, int numRows, ColumnVector kinds,
            long firstRowPosition, long[] rowPositions) {
        if (vectors.length != type.fieldCount()) {
            throw new IllegalArgumentException("Cannot build a batch of " + type + " from " + vectors.length
                    + " vectors");
        }
        this.type = type;
        this.vectors = vectors;
        this.numRows = numRows;
        this.kinds = kinds;
        this.firstRowPosition = firstRowPosition;
        this.rowPositions = rowPositions;
    }

    public RowType type() {
        return type;
    }

    public int numRows() {
        return numRows;
    }

    public int arity() {
        return vectors.length;
    }

    public ColumnVector vector(int field) {
        return vectors[field];
    }

    /** The vectors themselves, for views in this package (never modified). */
    ColumnVector[] vectors() {
        return vectors;
    }

    /** The {@code _VALUE_KIND} bytes of the rows, or null when every row is an insert. */
    public ColumnVector kinds() {
        return kinds;
    }

    /** The position of row {@code rowId} in the data file it was read from. */
    public long rowPosition(int rowId) {
        return rowPositions == null ? firstRowPosition + rowId : rowPositions[rowId];
    }

    /**
     * The batch of fields {@code mapping[0..]} of this one, in that order.
     *
     * @param projectedType {@code type().project(mapping)}, computed once by the caller for all batches
     */
    public ColumnarBatch project(int[] mapping, RowType projectedType) {
        ColumnVector[] projected = new ColumnVector[mapping.length];
        for (int i = 0; i < mapping.length; i++) {
            projected[i] = vectors[mapping[i]];
        }
        return new ColumnarBatch(projectedType, projected, numRows, kinds, firstRowPosition, rowPositions);
    }

    /**
     * The same rows with other vectors of them (e.g. the same columns converted to other types):
     * {@code vectors[i]} holds field {@code i} of {@code type}.
     */
    public ColumnarBatch withVectors(RowType type, ColumnVector[] vectors) {
        return new ColumnarBatch(type, vectors, numRows, kinds, firstRowPosition, rowPositions);
    }

    /** This batch with the row kinds taken from {@code kindBytes} ({@code _VALUE_KIND} values). */
    public ColumnarBatch withKinds(ColumnVector kindBytes) {
        return new ColumnarBatch(type, vectors, numRows, kindBytes, firstRowPosition, rowPositions);
    }
}
