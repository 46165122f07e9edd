package dev.streamhouse.flink.catalog.system;

import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.api.common.io.DefaultInputSplitAssigner;
import org.apache.flink.api.common.io.InputFormat;
import org.apache.flink.api.common.io.statistics.BaseStatistics;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.GenericInputSplit;
import org.apache.flink.core.io.InputSplit;
import org.apache.flink.core.io.InputSplitAssigner;
import org.apache.flink.table.data.RowData;

import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Reads a system table's rows as one split: they are computed in {@link #open} from the data table's
 * metadata, so the query sees the metadata as of when it runs.
 */
final class SystemTableInputFormat implements InputFormat<RowData, InputSplit> {
    private static final long serialVersionUID = 1L;

    private final SystemTable systemTable;
    private final FileStoreTable dataTable;
    private final HashMap<String, String> dynamicOptions;
    private transient Iterator<RowData> rows;

    SystemTableInputFormat(SystemTable systemTable, FileStoreTable dataTable, Map<String, String> dynamicOptions) {
        this.systemTable = systemTable;
        this.dataTable = dataTable;
        this.dynamicOptions = new HashMap<>(dynamicOptions);
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
        try {
            rows = systemTable.rows(dataTable, dynamicOptions).iterator();
        } catch (IOException e) {
            throw new IOException("Cannot read system table " + dataTable.fullName() + SystemTables.SPLITTER
                    + systemTable.name() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean reachedEnd() {
        return !rows.hasNext();
    }

    @Override
    public RowData nextRecord(RowData reuse) {
        return rows.next();
    }

    @Override
    public void close() {
        rows = null;
    }
}
