package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;
import java.util.List;

/**
 * Reads the rows of one Parquet file in file order, one batch per row group, skipping row groups
 * the {@link RowGroupFilter} rules out. Rows are fresh {@link GenericRow}s (safe to keep). Any
 * failure, including corrupt pages found while decoding and codecs missing from the classpath, is an
 * {@link IOException} naming the file. Not thread-safe.
 */
final class ParquetRowReader implements RecordReader<InternalRow> {
    private final ParquetFileReader reader;
    private final Path file;
    private final List<BlockMetaData> rowGroups;
    private final int readArity;
    private final boolean noColumns;
    private final MessageColumnIO columnIO;
    private final RowMaterializer materializer;
    private final RowGroupFilter filter;
    private int nextRowGroup;
    private RowGroupIterator current;

    /** @param filter null to read every row group */
    ParquetRowReader(ParquetFileReader reader, Path file, MessageType requestedSchema, RowMaterializer materializer,
            int readArity, RowGroupFilter filter) {
        this.reader = reader;
        this.file = file;
        this.rowGroups = reader.getRowGroups();
        this.readArity = readArity;
        this.noColumns = requestedSchema.getFieldCount() == 0;
        this.materializer = materializer;
        this.filter = filter;
        this.columnIO = noColumns
                ? null
                : new ColumnIOFactory(reader.getFileMetaData().getCreatedBy())
                        .getColumnIO(requestedSchema, reader.getFileMetaData().getSchema(), true);
    }

    @Override
    public RecordIterator<InternalRow> readBatch() throws IOException {
        releaseCurrent();
        try {
            while (nextRowGroup < rowGroups.size()) {
                BlockMetaData block = rowGroups.get(nextRowGroup++);
                boolean wanted = block.getRowCount() > 0 && (filter == null || filter.mayMatch(block));
                if (!wanted || noColumns) {
                    reader.skipNextRowGroup();
                    if (wanted) {
                        return new NullRowsIterator(block.getRowCount(), readArity);
                    }
                    continue;
                }
                PageReadStore pages = reader.readNextRowGroup();
                if (pages == null) {
                    throw new IOException("row group " + (nextRowGroup - 1) + " of " + rowGroups.size() + " is missing");
                }
                current = new RowGroupIterator(pages, columnIO.getRecordReader(pages, materializer));
                return current;
            }
            return null;
        } catch (IOException | RuntimeException | LinkageError e) {
            throw ParquetErrors.readFailure(file, e);
        }
    }

    private void releaseCurrent() {
        if (current != null) {
            current.releaseBatch();
            current = null;
        }
    }

    @Override
    public void close() throws IOException {
        releaseCurrent();
        reader.close();
    }

    /** The rows of one row group, decoded lazily. */
    private final class RowGroupIterator implements RecordIterator<InternalRow> {
        private final PageReadStore pages;
        private final org.apache.parquet.io.RecordReader<InternalRow> records;
        private long remaining;
        private boolean released;

        RowGroupIterator(PageReadStore pages, org.apache.parquet.io.RecordReader<InternalRow> records) {
            this.pages = pages;
            this.records = records;
            this.remaining = pages.getRowCount();
        }

        @Override
        public InternalRow next() throws IOException {
            if (remaining <= 0 || released) {
                return null;
            }
            remaining--;
            try {
                InternalRow row = records.read();
                if (row == null) {
                    throw new IOException("a record of the row group decoded to nothing");
                }
                return row;
            } catch (IOException | RuntimeException | LinkageError e) {
                remaining = 0;
                throw ParquetErrors.readFailure(file, e);
            }
        }

        @Override
        public void releaseBatch() {
            if (!released) {
                released = true;
                pages.close();
            }
        }
    }

    /** Rows of a row group when no read column exists in the file: all fields null. */
    private static final class NullRowsIterator implements RecordIterator<InternalRow> {
        private final int arity;
        private long remaining;

        NullRowsIterator(long rows, int arity) {
            this.remaining = rows;
            this.arity = arity;
        }

        @Override
        public InternalRow next() {
            if (remaining <= 0) {
                return null;
            }
            remaining--;
            return new GenericRow(arity);
        }

        @Override
        public void releaseBatch() {}
    }
}
