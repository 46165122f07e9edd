package dev.streamhouse.flink.catalog.system;

import dev.streamhouse.flink.catalog.AuditLogColumns;
import dev.streamhouse.flink.common.FlinkTypes;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.system.AuditLogTable;
import dev.streamhouse.storage.table.system.SystemTable;
import dev.streamhouse.storage.table.system.SystemTables;
import dev.streamhouse.storage.types.RowType;

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
 * partitions (as Apache Paimon's catalog shows them), and the options of the query ({@code OPTIONS}
 * hints, {@code FOR SYSTEM_TIME AS OF}). The table factory recognizes it and serves a
 * {@link SystemTableSource} for a metadata table, the paimon table source for a data view
 * ({@link SystemTables#dataView}: {@code audit_log}, {@code binlog}, {@code ro}); system tables are
 * read-only.
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

    /** The data table whose metadata or data is shown. */
    public Table dataTable() {
        return dataTable;
    }

    /** The system table's name, e.g. {@code files}. */
    public String systemTableName() {
        return name;
    }

    /** Whether this is a data view, read like a table (see {@link SystemTables#dataView}). */
    public boolean isDataView() {
        return SystemTables.isDataView(name);
    }

    /** The data view this describes (without the query's options); only for {@link #isDataView()}. */
    public Table dataView() {
        return SystemTables.dataView(dataTable, name).orElseThrow(
                () -> new IllegalStateException("No data view " + name));
    }

    private RowType rowType() {
        if (isDataView()) {
            return dataView().rowType();
        }
        SystemTable table = SystemTables.of(dataTable, name).orElseThrow(
                () -> new IllegalStateException("No system table " + name));
        return table.rowType();
    }

    @Override
    public Schema getUnresolvedSchema() {
        Schema.Builder builder = Schema.newBuilder()
                .fromRowDataType(TypeConversions.fromLogicalToDataType(FlinkTypes.toFlinkType(rowType(), name)));
        if (AuditLogTable.NAME.equalsIgnoreCase(name)) {
            AuditLogColumns.addTo(builder, dataTable.schema(), dataTable.fullName());
        }
        return builder.build();
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
