package dev.streamhouse.flink.catalog.system;

import dev.streamhouse.flink.catalog.PredicateConverter;
import dev.streamhouse.flink.catalog.PushedFilters;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.system.SystemTable;
import dev.streamhouse.storage.table.system.SystemTables;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.InputFormatProvider;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.DataType;

import java.util.ArrayList;
import java.util.List;

/**
 * A bounded, insert-only scan of a storage {@link SystemTable}: projection and filters are pushed into
 * the storage read (rows that fail the filter are never converted; Flink still applies its filter),
 * and one task reads the rows as they are computed when the job runs.
 */
public final class SystemTableSource implements ScanTableSource, LookupTableSource, SupportsProjectionPushDown,
        SupportsFilterPushDown {
    private final Table dataTable;
    private final String name;
    private int[] projection;
    private Predicate filter;

    /** @param dataTable the data table with the query's time-travel options applied */
    public SystemTableSource(Table dataTable, String name) {
        this.dataTable = dataTable;
        this.name = name;
    }

    private SystemTableSource(SystemTableSource other) {
        this(other.dataTable, other.name);
        this.projection = other.projection == null ? null : other.projection.clone();
        this.filter = other.filter;
    }

    private SystemTable systemTable() {
        return SystemTables.of(dataTable, name).orElseThrow(() -> new IllegalStateException("No system table " + name));
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        return InputFormatProvider.of(new SystemTableInputFormat(dataTable, name, projection, filter), 1);
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(int[][] projectedFields, DataType producedDataType) {
        int[] top = new int[projectedFields.length];
        for (int i = 0; i < top.length; i++) {
            top[i] = projectedFields[i][0];
        }
        this.projection = top;
    }

    @Override
    public Result applyFilters(List<ResolvedExpression> filters) {
        PushedFilters pushed = PredicateConverter.pushDown(systemTable().rowType(), List.of(), filters, false);
        this.filter = pushed.predicate().orElse(null);
        return Result.of(new ArrayList<>(pushed.consumedFilters()), new ArrayList<>(pushed.remainingFilters()));
    }

    @Override
    public DynamicTableSource copy() {
        return new SystemTableSource(this);
    }

    /** Refused: system tables are metadata views, not dimensions a cache could follow. */
    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        throw new org.apache.flink.table.api.ValidationException("Cannot look up rows of system table "
                + dataTable.fullName() + SystemTables.SPLITTER + name + ": lookup joins ('FOR SYSTEM_TIME AS OF') "
                + "read data tables only; join the system table as a regular (non-temporal) join instead");
    }

    @Override
    public String asSummaryString() {
        return "SystemTable(" + dataTable.fullName() + SystemTables.SPLITTER + name + ")";
    }
}
