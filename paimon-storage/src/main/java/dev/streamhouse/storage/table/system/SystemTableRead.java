package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.ProjectedRow;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;

/**
 * Reads a {@link SystemTable}: the rows that satisfy the filter, with the projected columns, streamed
 * in batches as they are computed. Not thread-safe; one reader per call of {@link #createReader()}.
 */
public final class SystemTableRead {
    private static final int BATCH = 1024;

    private final MetadataTable table;
    private int[] projection;
    private Predicate filter;

    SystemTableRead(MetadataTable table) {
        this.table = table;
    }

    /** Only these columns (positions of the system table's row type), in this order. */
    public SystemTableRead withProjection(int[] positions) {
        for (int p : positions) {
            if (p < 0 || p >= table.rowType().fieldCount()) {
                throw new IllegalArgumentException("Cannot project column " + p + " of system table "
                        + table.fullName() + ": it has " + table.rowType().fieldCount() + " columns");
            }
        }
        this.projection = positions.clone();
        return this;
    }

    /** Only rows satisfying {@code predicate}, a predicate over the full system table row. */
    public SystemTableRead withFilter(Predicate predicate) {
        this.filter = predicate;
        return this;
    }

    /** The type of the rows the reader returns. */
    public RowType readType() {
        return projection == null ? table.rowType() : table.rowType().project(projection);
    }

    /**
     * A reader of the rows. Each row is a fresh object, valid after the batch is released.
     *
     * @throws IOException if the metadata cannot be read; the message names the table
     * @throws IllegalArgumentException if a time-travel option names no snapshot
     */
    public RecordReader<InternalRow> createReader() throws IOException {
        Iterator<InternalRow> rows = table.rows();
        int[] mapping = projection;
        Predicate predicate = filter;
        return new RecordReader<>() {
            private boolean done;

            @Override
            public RecordIterator<InternalRow> readBatch() throws IOException {
                if (done) {
                    return null;
                }
                try {
                    done = !rows.hasNext();
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
                if (done) {
                    return null;
                }
                return new RecordIterator<>() {
                    private int left = BATCH;

                    @Override
                    public InternalRow next() throws IOException {
                        try {
                            while (left > 0 && rows.hasNext()) {
                                InternalRow row = rows.next();
                                if (predicate == null || predicate.test(row)) {
                                    left--;
                                    return mapping == null ? row : new ProjectedRow(mapping).replace(row);
                                }
                            }
                            return null;
                        } catch (UncheckedIOException e) {
                            throw e.getCause();
                        }
                    }

                    @Override
                    public void releaseBatch() {}
                };
            }

            @Override
            public void close() {}
        };
    }
}
