package dev.streamhouse.storage.mergetree.io;

import dev.streamhouse.storage.casting.CastedRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.ProjectedRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;

/**
 * Turns the rows of one data file (read with a {@link KeyValueReadPlan}) into KeyValues, reusing one
 * KeyValue and its views. Read errors are reported with the file and table.
 */
final class KeyValueFileReader implements RecordReader<KeyValue> {
    private final RecordReader<InternalRow> rows;
    private final KeyValueReadPlan plan;
    private final int level;
    private final Path file;
    private final String tableName;
    private final KeyValue reuse = new KeyValue();
    private final ProjectedRow key;
    private final ProjectedRow value;
    /** Converts widened value columns to their current types; null when the file needs no casts. */
    private final CastedRow casted;

    KeyValueFileReader(RecordReader<InternalRow> rows, KeyValueReadPlan plan, int level, Path file,
            String tableName) {
        this.rows = rows;
        this.plan = plan;
        this.level = level;
        this.file = file;
        this.tableName = tableName;
        this.key = new ProjectedRow(plan.keyPositions);
        this.value = new ProjectedRow(plan.valuePositions);
        this.casted = CastedRow.needed(plan.casts) ? new CastedRow(plan.casts) : null;
    }

    private IOException wrap(Exception e) {
        return new IOException("Cannot read data file " + file + " of table " + tableName + ": " + e.getMessage(), e);
    }

    @Override
    public RecordIterator<KeyValue> readBatch() throws IOException {
        RecordIterator<InternalRow> batch;
        try {
            batch = rows.readBatch();
        } catch (IOException | RuntimeException e) {
            throw wrap(e);
        }
        if (batch == null) {
            return null;
        }
        return new RecordIterator<KeyValue>() {
            @Override
            public KeyValue next() throws IOException {
                InternalRow row;
                try {
                    row = batch.next();
                } catch (IOException | RuntimeException e) {
                    throw wrap(e);
                }
                return row == null ? null : toKeyValue(row);
            }

            @Override
            public void releaseBatch() {
                batch.releaseBatch();
            }
        };
    }

    private KeyValue toKeyValue(InternalRow row) throws IOException {
        if (plan.keyColumns) {
            for (int p : plan.keyPositions) {
                if (row.isNullAt(p)) {
                    throw new IOException("Cannot read data file " + file + " of table " + tableName + ": key column "
                            + plan.fileReadType.field(p).name() + " is NULL or missing; a file without _KEY_* "
                            + "columns must be written with 'data-file.thin-mode' set in its schema");
                }
            }
        }
        if (row.isNullAt(plan.sequencePosition) || row.isNullAt(plan.valueKindPosition)) {
            throw new IOException("Cannot read data file " + file + " of table " + tableName
                    + ": it has no _SEQUENCE_NUMBER or _VALUE_KIND column; it is not a primary-key data file");
        }
        RowKind kind;
        byte kindByte = row.byteAt(plan.valueKindPosition);
        try {
            kind = RowKind.fromByteValue(kindByte);
        } catch (IllegalArgumentException e) {
            throw new IOException("Cannot read data file " + file + " of table " + tableName + ": _VALUE_KIND "
                    + kindByte + " is not a row kind (0..3); the file is corrupt", e);
        }
        InternalRow values = casted == null ? row : casted.replace(row);
        return reuse.replace(key.replace(row), row.longAt(plan.sequencePosition), kind, value.replace(values))
                .setLevel(level);
    }

    @Override
    public void close() throws IOException {
        rows.close();
    }
}
