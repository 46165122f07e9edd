package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.columnar.ColumnVector;
import dev.streamhouse.storage.data.columnar.ColumnarBatch;
import dev.streamhouse.storage.data.columnar.HeapVector;
import dev.streamhouse.storage.data.columnar.NullVector;
import dev.streamhouse.storage.data.columnar.ObjectVector;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.reader.ColumnarRecordReader;
import dev.streamhouse.storage.reader.ColumnarRowIterator;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.PrimitiveIterator;
import java.util.Set;

/**
 * Reads a Parquet file as batches of column vectors, in file order: at most {@code batchSize} rows per
 * batch, never spanning two row groups. Row groups the {@link RowGroupFilter} rules out are skipped, and
 * within the others the pages the page filter rules out by the file's page indexes
 * ({@link ParquetFilters}); every row of the pages read is returned (rows are not filtered one by one).
 *
 * <p>Flat columns are decoded page by page ({@link PrimitiveColumnReader}); nested columns are
 * assembled row by row into object vectors ({@link NestedColumnReader}); read columns the file lacks
 * are {@link NullVector}s. Each batch knows the file position of its rows.
 *
 * <p>Every batch gets vectors of its own, sized to its rows, which later batches never touch: rows
 * stay valid as long as they are referenced (string values are slices of the page or dictionary they
 * were decoded from, which stay with them). Any failure, including corrupt pages and codecs missing
 * from the classpath, is an {@link IOException} naming the file. Not thread-safe.
 */
final class ParquetColumnarReader implements ColumnarRecordReader {
    private final ParquetFileReader reader;
    private final Path file;
    private final RowType readType;
    private final int batchSize;
    private final List<BlockMetaData> rowGroups;
    private final RowGroupFilter filter;
    private final FilterCompat.Filter pageFilter;
    private final Set<ColumnPath> fileColumns; // the requested ones, as parquet-mr passes them
    private final boolean noColumns;

    /** Per read field: its column in the requested schema (flat or nested), or null when the file lacks it. */
    private final ColumnDescriptor[] flatColumns;
    private final PrimitiveType[] flatTypes;
    private final NestedColumnReader[] nestedColumns;


    private int nextRowGroup;
    private long rowGroupOffset;
    private long[] rowGroupOffsets;
    private PageReadStore pages;
    private PrimitiveColumnReader[] flatReaders;
    private long groupRows;
    private long groupRowsRead;
    /** The rows of the current row group to read, when page filtering selected only some. */
    private PrimitiveIterator.OfLong rowIndexes;

    /**
     * @param filter null to read every row group
     * @param pageFilter null to read every page of the row groups read
     */
    ParquetColumnarReader(ParquetFileReader reader, Path file, RowType readType, MessageType requested,
            int batchSize, RowGroupFilter filter, FilterPredicate pageFilter) {
        this.reader = reader;
        this.file = file;
        this.readType = readType;
        this.batchSize = batchSize;
        this.rowGroups = reader.getRowGroups();
        this.filter = filter;
        this.pageFilter = pageFilter == null ? null : FilterCompat.get(pageFilter);
        this.noColumns = requested.getFieldCount() == 0;
        this.fileColumns = new HashSet<>();
        for (ColumnDescriptor column : requested.getColumns()) {
            fileColumns.add(ColumnPath.get(column.getPath()));
        }
        int n = readType.fieldCount();
        this.flatColumns = new ColumnDescriptor[n];
        this.flatTypes = new org.apache.parquet.schema.PrimitiveType[n];
        this.nestedColumns = new NestedColumnReader[n];
        MessageType fileSchema = reader.getFileMetaData().getSchema();
        String createdBy = reader.getFileMetaData().getCreatedBy();
        for (int i = 0; i < n; i++) {
            String name = readType.field(i).name();
            if (!requested.containsField(name)) {
                continue;
            }
            Type field = requested.getType(name);
            DataType type = readType.typeAt(i);
            if (field.isPrimitive() && !type.root().isNested()) {
                flatColumns[i] = requested.getColumnDescription(new String[] {name});
                flatTypes[i] = field.asPrimitiveType();
            } else {
                nestedColumns[i] = new NestedColumnReader(type, field, fileSchema, createdBy);
            }
        }
        this.rowGroupOffsets = new long[rowGroups.size()];
        long offset = 0;
        for (int g = 0; g < rowGroups.size(); g++) {
            rowGroupOffsets[g] = offset;
            offset += rowGroups.get(g).getRowCount();
        }
    }

    @Override
    public ColumnarRowIterator readBatch() throws IOException {
        try {
            while (groupRowsRead >= groupRows) {
                if (!nextRowGroup()) {
                    return null;
                }
            }
            int n = (int) Math.min(batchSize, groupRows - groupRowsRead);
            ColumnVector[] columns = new ColumnVector[readType.fieldCount()];
            ColumnarBatch batch;
            if (rowIndexes == null) {
                fill(columns, groupRowsRead, n, null);
                batch = new ColumnarBatch(readType, columns, n, rowGroupOffset + groupRowsRead);
            } else {
                long[] positions = new long[n];
                for (int i = 0; i < n; i++) {
                    positions[i] = rowIndexes.nextLong();
                }
                fill(columns, -1, n, positions);
                long[] filePositions = positions;
                for (int i = 0; i < n; i++) {
                    filePositions[i] += rowGroupOffset;
                }
                batch = new ColumnarBatch(readType, columns, n, filePositions);
            }
            groupRowsRead += n;
            return new ColumnarRowIterator(batch, null);
        } catch (IOException | RuntimeException | LinkageError e) {
            throw ParquetErrors.readFailure(file, e);
        }
    }

    /**
     * Fills one vector per field with the next {@code n} rows: rows {@code [first, first + n)} of the row
     * group, or, with page filtering, the rows {@code selected[0, n)} (increasing).
     */
    private void fill(ColumnVector[] columns, long first, int n, long[] selected) throws IOException {
        for (int i = 0; i < columns.length; i++) {
            if (flatReaders != null && flatReaders[i] != null) {
                PrimitiveColumnReader column = flatReaders[i];
                HeapVector vector = column.newVector(n);
                if (selected == null) {
                    column.read(first, n, vector, 0);
                } else {
                    int start = 0;
                    while (start < n) {
                        int end = start + 1;
                        while (end < n && selected[end] == selected[end - 1] + 1) {
                            end++;
                        }
                        column.read(selected[start], end - start, vector, start);
                        start = end;
                    }
                }
                columns[i] = vector;
            } else if (nestedColumns[i] != null) {
                ObjectVector vector = new ObjectVector(n);
                nestedColumns[i].read(n, vector);
                columns[i] = vector;
            } else {
                columns[i] = NullVector.INSTANCE;
            }
        }
    }

    /** Moves to the next row group that may match; false at the end of the file. */
    private boolean nextRowGroup() throws IOException {
        closePages();
        while (nextRowGroup < rowGroups.size()) {
            int index = nextRowGroup++;
            BlockMetaData block = rowGroups.get(index);
            boolean wanted = block.getRowCount() > 0 && (filter == null || filter.mayMatch(block));
            if (!wanted) {
                continue;
            }
            rowGroupOffset = rowGroupOffsets[index];
            groupRowsRead = 0;
            rowIndexes = null;
            if (noColumns) {
                groupRows = block.getRowCount();
                return true;
            }
            RowRanges ranges = pageFilter == null ? null : ColumnIndexFilter.calculateRowRanges(pageFilter,
                    reader.getColumnIndexStore(index), fileColumns, block.getRowCount());
            PageReadStore store;
            if (ranges == null || ranges.rowCount() == block.getRowCount()) {
                store = reader.readRowGroup(index);
            } else if (ranges.rowCount() == 0) {
                continue; // the page indexes prove that no row of the group matches
            } else {
                store = reader.readFilteredRowGroup(index, ranges);
            }
            if (store == null) {
                throw new IOException("row group " + index + " of " + rowGroups.size() + " is missing");
            }
            pages = store;
            groupRows = store.getRowCount();
            if (groupRows != block.getRowCount()) {
                rowIndexes = store.getRowIndexes().orElseThrow(() -> new IOException(
                        "the page store of a filtered row group does not say which rows it holds"));
            }
            flatReaders = new PrimitiveColumnReader[flatColumns.length];
            for (int i = 0; i < flatColumns.length; i++) {
                if (flatColumns[i] != null) {
                    flatReaders[i] = PrimitiveColumnReaders.create(flatColumns[i],
                            store.getPageReader(flatColumns[i]), readType.typeAt(i), flatTypes[i]);
                } else if (nestedColumns[i] != null) {
                    nestedColumns[i].startRowGroup(store);
                }
            }
            return true;
        }
        groupRows = 0;
        groupRowsRead = 0;
        return false;
    }

    private void closePages() {
        if (pages != null) {
            pages.close();
            pages = null;
        }
        flatReaders = null;
    }

    @Override
    public void close() throws IOException {
        closePages();
        reader.close();
    }
}
