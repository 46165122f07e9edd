package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The row-assembly reader that the columnar reader ({@link ParquetColumnarReader}) replaced, kept in
 * test scope as the reference the columnar reader is checked against: parquet-mr's record assembly
 * with our converters ({@link RowMaterializer}), one GenericRow per record.
 *
 * <p>Reads the rows of one Parquet file in file order, one batch per row group, skipping row groups
 * the {@link RowGroupFilter} rules out and, within the others, pages the page filter rules out by the
 * file's page indexes ({@link ParquetFilters}); rows of the pages read are all returned. Rows are fresh {@link GenericRow}s (safe to keep). Any
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
    private final FilterCompat.Filter pageFilter;
    private final Set<ColumnPath> fileColumns; // the requested ones, as parquet-mr passes them
    private int nextRowGroup;
    private RowGroupIterator current;

    /**
     * @param filter null to read every row group
     * @param pageFilter null to read every page of the row groups read
     */
    ParquetRowReader(ParquetFileReader reader, Path file, MessageType requestedSchema, RowMaterializer materializer,
            int readArity, RowGroupFilter filter, FilterPredicate pageFilter) {
        this.reader = reader;
        this.file = file;
        this.rowGroups = reader.getRowGroups();
        this.readArity = readArity;
        this.noColumns = requestedSchema.getFieldCount() == 0;
        this.materializer = materializer;
        this.filter = filter;
        this.pageFilter = pageFilter == null ? null : FilterCompat.get(pageFilter);
        this.fileColumns = new HashSet<>();
        for (ColumnDescriptor column : requestedSchema.getColumns()) {
            fileColumns.add(ColumnPath.get(column.getPath()));
        }
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
                int index = nextRowGroup++;
                BlockMetaData block = rowGroups.get(index);
                boolean wanted = block.getRowCount() > 0 && (filter == null || filter.mayMatch(block));
                if (!wanted) {
                    continue;
                }
                if (noColumns) {
                    return new NullRowsIterator(block.getRowCount(), readArity);
                }
                PageReadStore pages;
                RowRanges ranges = pageFilter == null ? null : ColumnIndexFilter.calculateRowRanges(pageFilter,
                        reader.getColumnIndexStore(index), fileColumns, block.getRowCount());
                if (ranges == null || ranges.rowCount() == block.getRowCount()) {
                    pages = reader.readRowGroup(index);
                } else if (ranges.rowCount() == 0) {
                    continue; // the page indexes prove that no row of the group matches
                } else {
                    pages = reader.readFilteredRowGroup(index, ranges);
                }
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
