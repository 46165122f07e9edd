package dev.streamhouse.storage.read;

import dev.streamhouse.storage.casting.CastedVector;
import dev.streamhouse.storage.casting.ColumnCast;
import dev.streamhouse.storage.data.columnar.ColumnVector;
import dev.streamhouse.storage.data.columnar.ColumnarBatch;
import dev.streamhouse.storage.reader.ColumnarRecordReader;
import dev.streamhouse.storage.reader.ColumnarRowIterator;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The batches of one data file as a {@link DataFileReadPlan} presents them: widened columns converted,
 * deleted rows left out, errors naming the table, the file, its partition and bucket ({@link DataFileFailures}).
 */
final class DataFileRecordReader implements ColumnarRecordReader {
    private final ColumnarRecordReader reader;
    private final ColumnCast[] casts;
    private final boolean anyCast;
    /** The read type with converted columns in their current types. */
    private final RowType castType;
    private final DeletionVector deletionVector;
    /** Scratch: the deleted row ids of the batch being read. */
    private int[] deleted = new int[0];
    private final DataFileFailures failures;

    DataFileRecordReader(ColumnarRecordReader reader, DataFileReadPlan plan, DeletionVector deletionVector,
            DataFileFailures failures) {
        this.reader = reader;
        int n = plan.fileReadType().fieldCount();
        this.casts = new ColumnCast[n];
        boolean any = false;
        for (int i = 0; i < n; i++) {
            ColumnCast c = plan.cast(i);
            if (c != null && c.convertsValues()) {
                casts[i] = c;
                any = true;
            }
        }
        this.anyCast = any;
        List<DataField> fields = new ArrayList<>(plan.fileReadType().fields());
        for (int i = 0; i < n; i++) {
            if (casts[i] != null) {
                DataField f = fields.get(i);
                fields.set(i, new DataField(f.id(), f.name(), casts[i].to().nullable()));
            }
        }
        this.castType = new RowType(fields);
        this.deletionVector = deletionVector;
        this.failures = failures;
    }

    @Override
    public ColumnarRowIterator readBatch() throws IOException {
        ColumnarRowIterator batch;
        try {
            batch = reader.readBatch();
        } catch (IOException | RuntimeException e) {
            throw DataFileFailures.rethrow(failures.translate(e));
        }
        if (batch == null) {
            return null;
        }
        if (anyCast) {
            batch = batch.withBatch(this::cast);
        }
        if (deletionVector != null) {
            batch = skipDeleted(batch);
        }
        return batch;
    }

    /**
     * The batch without its rows at deleted positions: the vector's deleted positions in the batch's
     * range when its rows are consecutive in the file (as without page filtering), else one lookup
     * per row.
     */
    private ColumnarRowIterator skipDeleted(ColumnarRowIterator batch) {
        ColumnarBatch b = batch.batch();
        int n = b.numRows();
        if (n == 0) {
            return batch;
        }
        if (deleted.length < n) {
            deleted = new int[n];
        }
        int[] ids = deleted;
        long first = b.rowPosition(0);
        int k;
        if (b.rowPosition(n - 1) - first == n - 1) { // positions increase, so they are consecutive
            k = deletionVector.deletedIn(first, n, ids);
        } else {
            k = 0;
            for (int rowId = 0; rowId < n; rowId++) {
                if (deletionVector.isDeleted(b.rowPosition(rowId))) {
                    ids[k++] = rowId;
                }
            }
        }
        return batch.skipRows(ids, k);
    }

    private ColumnarBatch cast(ColumnarBatch batch) {
        ColumnVector[] vectors = new ColumnVector[casts.length];
        for (int i = 0; i < casts.length; i++) {
            vectors[i] = casts[i] == null ? batch.vector(i) : new CastedVector(batch.vector(i), casts[i]);
        }
        return batch.withVectors(castType, vectors);
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
