package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.ProjectedRow;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.reader.TransformingRecordReader;
import dev.streamhouse.storage.table.source.DataTableRead;
import dev.streamhouse.storage.table.source.Split;
import dev.streamhouse.storage.table.source.TableRead;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;

/**
 * Reads splits of a change view: the data read's rows (with their kinds, retractions kept) become
 * view rows of the read columns (the projection, then the filter's other columns), every one of kind
 * +I; with {@link #executeFilter()} those failing the filter are dropped; then they are cut to the
 * projection. View rows are views of the data rows (audit log) or hold their values (binlog), so they
 * stay valid as long as the data rows do. Thread-safe for creating readers.
 */
final class ChangeViewRead implements TableRead {
    private final ChangeViewReadBuilder.Shape shape;
    private final DataTableRead data;
    private final int[] dataIndexOf;
    private final Predicate readFilter;
    private final RowType outputType;
    private final String viewName;
    private volatile boolean executeFilter;

    /**
     * @param dataIndexOf for each read view column, its position in the data rows, -1 for {@code rowkind}
     * @param readFilter over the read view columns, or null
     * @param outputType the projected view type; its columns are the first read view columns
     */
    ChangeViewRead(ChangeViewReadBuilder.Shape shape, DataTableRead data, int[] dataIndexOf, Predicate readFilter,
            RowType outputType, String viewName) {
        this.shape = shape;
        this.data = data;
        this.dataIndexOf = dataIndexOf;
        this.readFilter = readFilter;
        this.outputType = outputType;
        this.viewName = viewName;
    }

    @Override
    public ChangeViewRead executeFilter() {
        this.executeFilter = true;
        return this;
    }

    @Override
    public RowType outputType() {
        return outputType;
    }

    @Override
    public RecordReader<InternalRow> createReader(Split split) throws IOException {
        RecordReader<InternalRow> view;
        try {
            view = shape.viewRows(data.createReader(split), dataIndexOf, data.outputType());
        } catch (IOException e) {
            throw new IOException("Cannot read system table " + viewName + ": " + e.getMessage(), e);
        }
        Predicate rowFilter = executeFilter ? readFilter : null;
        boolean cut = dataIndexOf.length != outputType.fieldCount();
        if (rowFilter == null && !cut) {
            return view;
        }
        int[] keep = new int[outputType.fieldCount()];
        for (int i = 0; i < keep.length; i++) {
            keep[i] = i;
        }
        return new TransformingRecordReader<>(view, rowFilter == null ? null : rowFilter::test,
                cut ? row -> new ProjectedRow(keep).replace(row) : row -> row);
    }
}
