package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.reader.TransformingRecordReader;
import dev.streamhouse.storage.table.source.DataReadBuilder;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.TableRead;
import dev.streamhouse.storage.table.source.TableScan;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a change view ({@link AuditLogTable}, {@link BinlogTable}) through the data table's read: view
 * position 0 is {@code rowkind}, view position {@code i > 0} shows data column {@code i - 1}. Scans
 * are the data read's (same splits, options, snapshots); the data read keeps retractions. Projection
 * and filter refer to the view's row type. Conjuncts on data columns of the audit log also prune the
 * data read (partitions, buckets, files); the whole filter is applied to the view rows.
 */
final class ChangeViewReadBuilder implements ReadBuilder {

    /** How data rows become view rows. */
    enum Shape {
        /** One view row per data row, columns as they are. */
        AUDIT_LOG {
            @Override
            RecordReader<InternalRow> viewRows(RecordReader<InternalRow> data, int[] dataIndexOf, RowType dataType) {
                return new TransformingRecordReader<>(data, null, row -> new AuditLogRow(row, dataIndexOf));
            }
        },
        /** Columns as arrays, an update's -U and +U packed into one row. */
        BINLOG {
            @Override
            RecordReader<InternalRow> viewRows(RecordReader<InternalRow> data, int[] dataIndexOf, RowType dataType) {
                return new BinlogRows(data, dataIndexOf, dataType);
            }
        };

        /**
         * @param dataIndexOf for each view column read, the position of its data column in the data rows,
         *     or -1 for {@code rowkind}
         * @param dataType the type of the data rows
         */
        abstract RecordReader<InternalRow> viewRows(RecordReader<InternalRow> data, int[] dataIndexOf,
                RowType dataType);

        /** Whether a predicate on a data column of the view is one on the data column (not for arrays). */
        boolean prunesData() {
            return this == AUDIT_LOG;
        }
    }

    private final Shape shape;
    private final DataReadBuilder data;
    private final RowType viewType;
    private final String viewName;
    private int[] projection;
    private Predicate filter;

    ChangeViewReadBuilder(Shape shape, DataReadBuilder data, RowType viewType, String viewName) {
        this.shape = shape;
        this.data = data;
        this.viewType = viewType;
        this.viewName = viewName;
        this.projection = new int[viewType.fieldCount()];
        for (int i = 0; i < projection.length; i++) {
            projection[i] = i;
        }
    }

    /** View position to data position: -1 for {@code rowkind}. */
    private int[] viewToData() {
        int[] mapping = new int[viewType.fieldCount()];
        for (int i = 0; i < mapping.length; i++) {
            mapping[i] = i - 1;
        }
        return mapping;
    }

    @Override
    public ChangeViewReadBuilder withProjection(int[] positions) {
        for (int p : positions) {
            if (p < 0 || p >= viewType.fieldCount()) {
                throw new IllegalArgumentException("Cannot project column " + p + " of system table " + viewName
                        + ": it has " + viewType.fieldCount() + " columns");
            }
        }
        this.projection = positions.clone();
        return this;
    }

    @Override
    public ChangeViewReadBuilder withProjection(List<String> columns) {
        int[] p = new int[columns.size()];
        for (int i = 0; i < p.length; i++) {
            p[i] = viewType.requireFieldIndex(columns.get(i));
        }
        return withProjection(p);
    }

    @Override
    public ChangeViewReadBuilder withScanListener(dev.streamhouse.storage.metrics.ScanListener listener) {
        data.withScanListener(listener);
        return this;
    }

    @Override
    public ChangeViewReadBuilder withFilter(Predicate predicate) {
        if (predicate == null) {
            return this;
        }
        filter = filter == null ? predicate : PredicateBuilder.and(filter, predicate);
        if (shape.prunesData()) {
            PredicateBuilder.pickByFieldMapping(predicate, viewToData()).ifPresent(data::withFilter);
        }
        return this;
    }

    /** {@inheritDoc} The predicate refers to view positions of the partition columns, with their data types. */
    @Override
    public ChangeViewReadBuilder withResolvedPartitions(Predicate partitions) {
        data.withResolvedPartitions(PredicateBuilder.transformFieldMapping(partitions, viewToData())
                .orElseThrow(() -> new IllegalArgumentException("Cannot read system table " + viewName
                        + ": the partition predicate " + partitions + " refers to column "
                        + DataViewTable.ROW_KIND_COLUMN)));
        return this;
    }

    @Override
    public ChangeViewReadBuilder withSnapshot(long id) {
        data.withSnapshot(id);
        return this;
    }

    @Override
    public ChangeViewReadBuilder withTimestampMillis(long timestampMillis) {
        data.withTimestampMillis(timestampMillis);
        return this;
    }

    @Override
    public RowType readType() {
        return viewType.project(projection);
    }

    @Override
    public TableScan newScan() {
        return data.newScan();
    }

    @Override
    public StreamTableScan newStreamScan() {
        return data.newStreamScan();
    }

    /**
     * A read of the projected view columns and those the filter needs: the data read reads their data
     * columns (at least one, so that it returns rows), the shape turns them into view rows.
     */
    @Override
    public TableRead newRead() {
        List<Integer> viewRead = new ArrayList<>();
        for (int p : projection) {
            viewRead.add(p);
        }
        if (filter != null) {
            for (int p : PredicateBuilder.referencedFields(filter)) {
                if (!viewRead.contains(p)) {
                    viewRead.add(p);
                }
            }
        }
        List<Integer> dataColumns = new ArrayList<>();
        int[] dataIndexOf = new int[viewRead.size()];
        for (int i = 0; i < dataIndexOf.length; i++) {
            int viewPosition = viewRead.get(i);
            if (viewPosition == 0) {
                dataIndexOf[i] = -1;
            } else {
                dataIndexOf[i] = dataColumns.size();
                dataColumns.add(viewPosition - 1);
            }
        }
        if (dataColumns.isEmpty()) {
            dataColumns.add(0);
        }
        data.withProjection(dataColumns.stream().mapToInt(Integer::intValue).toArray());
        int[] viewToRead = new int[viewType.fieldCount()];
        java.util.Arrays.fill(viewToRead, -1);
        for (int i = 0; i < viewRead.size(); i++) {
            viewToRead[viewRead.get(i)] = i;
        }
        Predicate readFilter = filter == null ? null
                : PredicateBuilder.transformFieldMapping(filter, viewToRead).orElseThrow();
        return new ChangeViewRead(shape, data.newRead(), dataIndexOf, readFilter, readType(), viewName);
    }
}
