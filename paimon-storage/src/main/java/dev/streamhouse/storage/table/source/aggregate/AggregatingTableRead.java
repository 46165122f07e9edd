package dev.streamhouse.storage.table.source.aggregate;

import dev.streamhouse.storage.data.columnar.ColumnarRow;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.reader.ColumnarRowIterator;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.Split;
import dev.streamhouse.storage.table.source.TableRead;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A read that returns, per split, one row: the {@link LocalAggregate}s of the rows {@code rows} reads
 * from it (the table's live rows: merged, deletion vectors applied). An engine's final aggregation
 * merges the splits' rows; what Flink's aggregate push-down asks of a source. Only full splits (a
 * snapshot's rows) are aggregated: delta splits (changes) are refused.
 */
public final class AggregatingTableRead implements TableRead {
    private final TableRead rows;
    private final List<LocalAggregate> aggregates;
    private final RowType outputType;

    /**
     * @param rows the read whose output rows are aggregated
     * @throws IllegalArgumentException if an aggregate does not support its column's type
     */
    public AggregatingTableRead(TableRead rows, List<LocalAggregate> aggregates) {
        this.rows = rows;
        this.aggregates = List.copyOf(aggregates);
        this.outputType = outputType(rows.outputType(), this.aggregates);
        new Accumulators(rows.outputType(), this.aggregates); // validates the columns' types
    }

    /** The row type of the aggregates' results over rows of {@code readType}: fields {@code agg0, agg1, ...}. */
    public static RowType outputType(RowType readType, List<LocalAggregate> aggregates) {
        List<DataField> fields = new ArrayList<>();
        for (int i = 0; i < aggregates.size(); i++) {
            fields.add(new DataField(i, "agg" + i, aggregates.get(i).resultType(readType)));
        }
        return new RowType(fields);
    }

    @Override
    public TableRead executeFilter() {
        rows.executeFilter();
        return this;
    }

    @Override
    public RowType outputType() {
        return outputType;
    }

    @Override
    public RecordReader<InternalRow> createReader(Split split) throws IOException {
        if (split instanceof DataSplit d && d.delta()) {
            throw new IllegalArgumentException("Cannot aggregate the rows of " + split
                    + ": it holds changes, and only full splits are aggregated");
        }
        Accumulators accumulators = new Accumulators(rows.outputType(), aggregates);
        try (RecordReader<InternalRow> reader = rows.createReader(split)) {
            ColumnarRow view = null;
            RecordIterator<InternalRow> batch;
            while ((batch = reader.readBatch()) != null) {
                if (batch instanceof ColumnarRowIterator columnar) {
                    // row ids through one reused view: no object per row
                    if (view == null) {
                        view = new ColumnarRow();
                    }
                    int id;
                    while ((id = columnar.nextRowId()) >= 0) {
                        accumulators.add(view.point(columnar.batch(), id));
                    }
                } else {
                    InternalRow row;
                    while ((row = batch.next()) != null) {
                        accumulators.add(row);
                    }
                }
                batch.releaseBatch();
            }
        }
        return singleRow(accumulators.result());
    }

    private static RecordReader<InternalRow> singleRow(GenericRow row) {
        return new RecordReader<>() {
            private boolean returned;

            @Override
            public RecordIterator<InternalRow> readBatch() {
                if (returned) {
                    return null;
                }
                returned = true;
                return new RecordIterator<>() {
                    private boolean done;

                    @Override
                    public InternalRow next() {
                        if (done) {
                            return null;
                        }
                        done = true;
                        return row;
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
