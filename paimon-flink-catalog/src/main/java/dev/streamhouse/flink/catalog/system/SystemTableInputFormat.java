package dev.streamhouse.flink.catalog.system;

import dev.streamhouse.flink.source.data.FlinkRowData;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.system.SystemTable;
import dev.streamhouse.storage.table.system.SystemTableRead;
import dev.streamhouse.storage.table.system.SystemTables;

import org.apache.flink.api.common.io.DefaultInputSplitAssigner;
import org.apache.flink.api.common.io.InputFormat;
import org.apache.flink.api.common.io.statistics.BaseStatistics;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.GenericInputSplit;
import org.apache.flink.core.io.InputSplit;
import org.apache.flink.core.io.InputSplitAssigner;
import org.apache.flink.table.data.RowData;

import java.io.IOException;

/**
 * Reads a storage system table as one split: its rows are computed from the data table's metadata as
 * the reader advances, so the query sees the metadata as of when it runs. Rows are presented to Flink
 * as views ({@link FlinkRowData}); each storage row is a fresh object.
 */
final class SystemTableInputFormat implements InputFormat<RowData, InputSplit> {
    private static final long serialVersionUID = 1L;

    private final Table dataTable;
    private final String name;
    private final int[] projection;
    private final Predicate filter;
    private transient RecordReader<InternalRow> reader;
    private transient RecordIterator<InternalRow> batch;
    private transient InternalRow next;

    SystemTableInputFormat(Table dataTable, String name, int[] projection, Predicate filter) {
        this.dataTable = dataTable;
        this.name = name;
        this.projection = projection;
        this.filter = filter;
    }

    @Override
    public void configure(Configuration parameters) {}

    @Override
    public BaseStatistics getStatistics(BaseStatistics cachedStatistics) {
        return cachedStatistics;
    }

    @Override
    public InputSplit[] createInputSplits(int minNumSplits) {
        // One split whatever the parallelism: every split would otherwise compute all rows.
        return new InputSplit[] {new GenericInputSplit(0, 1)};
    }

    @Override
    public InputSplitAssigner getInputSplitAssigner(InputSplit[] inputSplits) {
        return new DefaultInputSplitAssigner(inputSplits);
    }

    @Override
    public void open(InputSplit split) throws IOException {
        SystemTable table = SystemTables.of(dataTable, name)
                .orElseThrow(() -> new IllegalStateException("No system table " + name));
        SystemTableRead read = table.newRead();
        if (projection != null) {
            read.withProjection(projection);
        }
        if (filter != null) {
            read.withFilter(filter);
        }
        try {
            reader = read.createReader();
            advance();
        } catch (IOException e) {
            throw new IOException("Cannot read system table " + table.fullName() + ": " + e.getMessage(), e);
        }
    }

    private void advance() throws IOException {
        while (true) {
            if (batch == null) {
                batch = reader.readBatch();
                if (batch == null) {
                    next = null;
                    return;
                }
            }
            next = batch.next();
            if (next != null) {
                return;
            }
            batch.releaseBatch();
            batch = null;
        }
    }

    @Override
    public boolean reachedEnd() {
        return next == null;
    }

    @Override
    public RowData nextRecord(RowData reuse) throws IOException {
        RowData out = new FlinkRowData(next);
        advance();
        return out;
    }

    @Override
    public void close() throws IOException {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
