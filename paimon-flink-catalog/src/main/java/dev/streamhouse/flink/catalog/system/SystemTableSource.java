package dev.streamhouse.flink.catalog.system;

import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.InputFormatProvider;
import org.apache.flink.table.connector.source.ScanTableSource;

import java.util.Map;

/**
 * A bounded, insert-only scan of a system table. One task computes all rows from the table's metadata
 * when the job runs; Flink applies filters, projections and joins on top.
 */
public final class SystemTableSource implements ScanTableSource {
    private final SystemTable systemTable;
    private final FileStoreTable dataTable;
    private final Map<String, String> dynamicOptions;

    public SystemTableSource(SystemTable systemTable, FileStoreTable dataTable, Map<String, String> dynamicOptions) {
        this.systemTable = systemTable;
        this.dataTable = dataTable;
        this.dynamicOptions = Map.copyOf(dynamicOptions);
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        return InputFormatProvider.of(new SystemTableInputFormat(systemTable, dataTable, dynamicOptions), 1);
    }

    @Override
    public DynamicTableSource copy() {
        return new SystemTableSource(systemTable, dataTable, dynamicOptions);
    }

    @Override
    public String asSummaryString() {
        return "SystemTable(" + dataTable.fullName() + SystemTables.SPLITTER + systemTable.name() + ")";
    }
}
