package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.flink.catalog.PredicateConverter;
import dev.streamhouse.flink.catalog.PushedFilters;
import dev.streamhouse.flink.source.PaimonSource;
import dev.streamhouse.flink.source.ParallelismInference;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLimitPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Reads a data table in Flink SQL: projection, filters (partition, file-statistics and key pruning;
 * only partition-only filters are reported as fully consumed in batch) and limit are pushed into the
 * FLIP-27 source. Batch reads of primary-key tables are insert-only after merging.
 */
public final class PaimonTableSource implements ScanTableSource, SupportsProjectionPushDown,
        SupportsFilterPushDown, SupportsLimitPushDown {
    private final FileStoreTable table;
    private final boolean streaming;
    private int[] projection;
    private Predicate filter;
    private Long limit;

    public PaimonTableSource(FileStoreTable table, boolean streaming) {
        this.table = table;
        this.streaming = streaming;
    }

    private PaimonTableSource(PaimonTableSource other) {
        this.table = other.table;
        this.streaming = other.streaming;
        this.projection = other.projection == null ? null : other.projection.clone();
        this.filter = other.filter;
        this.limit = other.limit;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        PaimonSource source = PaimonSource.builder(table).projection(projection).filter(filter).limit(limit).build();
        OptionalInt parallelism = ParallelismInference.inferParallelism(
                Configuration.fromMap(table.options()), source.plan().splits().size(), limit);
        return SourceProvider.of(source, parallelism.isPresent() ? parallelism.getAsInt() : null);
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
        PushedFilters pushed = PredicateConverter.pushDown(table.rowType(), table.partitionKeys(), filters, streaming);
        this.filter = pushed.predicate().orElse(null);
        return Result.of(new ArrayList<>(pushed.consumedFilters()), new ArrayList<>(pushed.remainingFilters()));
    }

    @Override
    public void applyLimit(long limit) {
        this.limit = limit;
    }

    @Override
    public DynamicTableSource copy() {
        return new PaimonTableSource(this);
    }

    @Override
    public String asSummaryString() {
        return "PaimonTableSource(" + table.fullName() + ")";
    }
}
