package dev.streamhouse.flink.catalog.system;

import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.types.utils.TypeConversions;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How the catalog describes {@code t$name} to Flink: the system table's columns, no partitions, and
 * the options of the query ({@code OPTIONS} hints, {@code FOR SYSTEM_TIME AS OF}). The table factory
 * recognizes it and serves a {@link SystemTableSource}; system tables are read-only.
 */
public final class SystemCatalogTable implements CatalogTable {
    private final SystemTable systemTable;
    private final FileStoreTable dataTable;
    private final Map<String, String> options;

    public SystemCatalogTable(SystemTable systemTable, FileStoreTable dataTable, Map<String, String> options) {
        this.systemTable = systemTable;
        this.dataTable = dataTable;
        this.options = Collections.unmodifiableMap(new HashMap<>(options));
    }

    public SystemTable systemTable() {
        return systemTable;
    }

    /** The data table whose metadata is shown. */
    public FileStoreTable dataTable() {
        return dataTable;
    }

    /** {@code <table>$<name>}. */
    public String objectName() {
        String table = dataTable.fullName();
        return table.substring(table.indexOf('.') + 1) + SystemTables.SPLITTER + systemTable.name();
    }

    @Override
    public Schema getUnresolvedSchema() {
        return Schema.newBuilder()
                .fromRowDataType(TypeConversions.fromLogicalToDataType(systemTable.rowType()))
                .build();
    }

    @Override
    public Map<String, String> getOptions() {
        return options;
    }

    @Override
    public String getComment() {
        return "System table " + systemTable.name() + " of " + dataTable.fullName();
    }

    @Override
    public boolean isPartitioned() {
        return false;
    }

    @Override
    public List<String> getPartitionKeys() {
        return List.of();
    }

    @Override
    public SystemCatalogTable copy(Map<String, String> newOptions) {
        return new SystemCatalogTable(systemTable, dataTable, newOptions);
    }

    @Override
    public CatalogBaseTable copy() {
        return copy(options);
    }

    @Override
    public Optional<String> getDescription() {
        return Optional.of(getComment());
    }

    @Override
    public Optional<String> getDetailedDescription() {
        return Optional.of(getComment() + " (read-only)");
    }
}
