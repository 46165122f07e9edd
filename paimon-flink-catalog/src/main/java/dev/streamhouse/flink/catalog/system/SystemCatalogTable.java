package dev.streamhouse.flink.catalog.system;

import dev.streamhouse.flink.common.FlinkTypes;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.system.SystemTable;
import dev.streamhouse.storage.table.system.SystemTables;

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
 * How the catalog describes {@code t$name} to Flink: the storage system table's columns, no
 * partitions, and the options of the query ({@code OPTIONS} hints, {@code FOR SYSTEM_TIME AS OF}). The
 * table factory recognizes it and serves a {@link SystemTableSource}; system tables are read-only.
 */
public final class SystemCatalogTable implements CatalogTable {
    private final Table dataTable;
    private final String name;
    private final Map<String, String> options;

    /** @param name the system table's name, one of {@link SystemTables#names()} */
    public SystemCatalogTable(Table dataTable, String name, Map<String, String> options) {
        this.dataTable = dataTable;
        this.name = name;
        this.options = Collections.unmodifiableMap(new HashMap<>(options));
    }

    /** The data table whose metadata is shown. */
    public Table dataTable() {
        return dataTable;
    }

    /** The system table's name, e.g. {@code files}. */
    public String systemTableName() {
        return name;
    }

    private SystemTable systemTable() {
        return SystemTables.of(dataTable, name).orElseThrow(
                () -> new IllegalStateException("No system table " + name));
    }

    @Override
    public Schema getUnresolvedSchema() {
        return Schema.newBuilder()
                .fromRowDataType(TypeConversions.fromLogicalToDataType(
                        FlinkTypes.toFlinkType(systemTable().rowType(), name)))
                .build();
    }

    @Override
    public Map<String, String> getOptions() {
        return options;
    }

    @Override
    public String getComment() {
        return "System table " + name + " of " + dataTable.fullName();
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
        return new SystemCatalogTable(dataTable, name, newOptions);
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
