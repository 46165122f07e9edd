package dev.streamhouse.storage.mergetree.io;

import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.columnar.ColumnVector;
import dev.streamhouse.storage.data.columnar.ColumnarBatch;
import dev.streamhouse.storage.data.columnar.ColumnarRow;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.reader.ColumnarRecordReader;
import dev.streamhouse.storage.reader.ColumnarRowIterator;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;

/**
 * The KeyValues of one data file, as views over its batches of column vectors: per batch, the key and
 * value columns are projected out of the batch (nothing copied) and one reused KeyValue, key view and
 * value view are moved from row to row. A record is valid until the next {@code next()}; its values
 * until the batch is released. Read errors are reported with the file and table.
 */
final class KeyValueFileReader implements RecordReader<KeyValue> {
    private final ColumnarRecordReader rows;
    private final KeyValueColumns columns;
    private final RowType keyType;
    private final RowType valueType;
    private final int level;
    private final Path file;
    private final String tableName;
    private final KeyValue reuse = new KeyValue();
    private final ColumnarRow key = new ColumnarRow();
    private final ColumnarRow value = new ColumnarRow();

    KeyValueFileReader(ColumnarRecordReader rows, KeyValueColumns columns, RowType keyType, RowType valueType,
            int level, Path file, String tableName) {
        this.rows = rows;
        this.columns = columns;
        this.keyType = keyType;
        this.valueType = valueType;
        this.level = level;
        this.file = file;
        this.tableName = tableName;
    }

    private IOException failure(String why, Exception cause) {
        return new IOException("Cannot read data file " + file + " of table " + tableName + ": " + why, cause);
    }

    @Override
    public RecordIterator<KeyValue> readBatch() throws IOException {
        ColumnarRowIterator batch;
        try {
            batch = rows.readBatch();
        } catch (IOException | RuntimeException e) {
            throw failure(e.getMessage(), e);
        }
        if (batch == null) {
            return null;
        }
        ColumnarBatch read = batch.batch();
        try {
            check(read);
        } catch (IOException e) {
            batch.releaseBatch();
            throw e;
        }
        ColumnarBatch keys = read.project(columns.keyPositions, keyType);
        ColumnarBatch values = read.project(columns.valuePositions, valueType);
        ColumnVector sequence = read.vector(columns.sequencePosition);
        ColumnVector kinds = read.vector(columns.valueKindPosition);
        return new RecordIterator<KeyValue>() {
            @Override
            public KeyValue next() throws IOException {
                int id = batch.nextRowId();
                if (id < 0) {
                    return null;
                }
                byte kindByte = kinds.getByte(id);
                RowKind kind;
                try {
                    kind = RowKind.fromByteValue(kindByte);
                } catch (IllegalArgumentException e) {
                    throw failure("_VALUE_KIND " + kindByte + " is not a row kind (0..3); the file is corrupt", e);
                }
                return reuse.replace(key.point(keys, id), sequence.getLong(id), kind, value.point(values, id))
                        .setLevel(level);
            }

            @Override
            public void releaseBatch() {
                batch.releaseBatch();
            }
        };
    }

    /** Key, sequence number and kind are never NULL in a primary-key data file. */
    private void check(ColumnarBatch batch) throws IOException {
        int n = batch.numRows();
        if (columns.keyColumns()) {
            for (int p : columns.keyPositions) {
                if (batch.vector(p).hasNulls(n)) {
                    throw failure("key column " + columns.plan.fileReadType().field(p).name() + " is NULL or missing;"
                            + " a file without _KEY_* columns must be written with 'data-file.thin-mode' set in its"
                            + " schema", null);
                }
            }
        }
        if (batch.vector(columns.sequencePosition).hasNulls(n) || batch.vector(columns.valueKindPosition).hasNulls(n)) {
            throw failure("it has no _SEQUENCE_NUMBER or _VALUE_KIND column; it is not a primary-key data file", null);
        }
    }

    @Override
    public void close() throws IOException {
        rows.close();
    }
}
