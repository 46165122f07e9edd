package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.table.source.aggregate.LocalAggregate;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.flink.catalog.PredicateConverter;
import dev.streamhouse.flink.catalog.PushedFilters;
import dev.streamhouse.flink.source.PaimonSource;
import dev.streamhouse.flink.source.PaimonSourceBuilder;
import dev.streamhouse.flink.source.lookup.LookupFunctions;
import dev.streamhouse.flink.source.lookup.LookupJoinSpec;
import dev.streamhouse.storage.lookup.LookupTable;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.table.Table;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSource;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsWatermarkPushDown;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.connector.source.abilities.SupportsAggregatePushDown;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsLimitPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.expressions.AggregateExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.types.DataType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads a data table in Flink SQL: projection, filters (partition, file-statistics and key pruning;
 * only partition-only filters are reported as fully consumed in batch) and limit are pushed into the
 * FLIP-27 source; a batch {@code COUNT(*)} is answered from metadata when the splits allow it
 * ({@link CountStarPushDown}).
 *
 * <p>In batch mode the read is bounded: one snapshot, primary-key tables merged, inserts only. In
 * streaming mode ({@code execution.runtime-mode} = streaming) it is unbounded: where
 * {@code scan.mode} / {@code consumer-id} say, then every committed change, with the
 * {@link StreamingChangelogMode}; the limit is not pushed (Flink applies it). The table's watermark
 * ({@code WATERMARK FOR}) is generated right after the source, per source task, with
 * {@code scan.watermark.idle-timeout} for tasks that receive no rows.
 *
 * <p>It is also the lookup side of lookup joins ({@link #getLookupRuntimeProvider}), with the same
 * projection and filter pushed into the cache.
 */
public final class PaimonTableSource implements ScanTableSource, LookupTableSource, SupportsProjectionPushDown,
        SupportsFilterPushDown, SupportsLimitPushDown, SupportsWatermarkPushDown, SupportsAggregatePushDown {
    private final Table table;
    private final boolean streaming;
    /** Whether the table is a system table's data view, which lookup joins do not read. */
    private final boolean systemTable;
    private int[] projection;
    private Predicate filter;
    private Long limit;
    private WatermarkStrategy<RowData> watermarks;
    /** Whether Flink must still apply some of the filters it offered (then no aggregate is pushed). */
    private boolean filtersRemain;
    /** The row count of a pushed {@code COUNT(*)}, and the row type to emit it in; null when none. */
    private Long countStar;
    private DataType countStarType;
    /** Aggregates the source computes per split from the rows it reads ({@link AggregatePushDown}); null when none. */
    private List<LocalAggregate> aggregates;

    public PaimonTableSource(Table table, boolean streaming) {
        this(table, streaming, false);
    }

    private PaimonTableSource(Table table, boolean streaming, boolean systemTable) {
        this.table = table;
        this.streaming = streaming;
        this.systemTable = systemTable;
    }

    /**
     * A scan of a system table that shows a table's data ({@code t$audit_log}, {@code t$binlog},
     * {@code t$ro}), read like its data table; lookup joins are refused.
     */
    public static PaimonTableSource forSystemTable(Table view, boolean streaming) {
        return new PaimonTableSource(view, streaming, true);
    }

    private PaimonTableSource(PaimonTableSource other) {
        this.table = other.table;
        this.streaming = other.streaming;
        this.systemTable = other.systemTable;
        this.projection = other.projection == null ? null : other.projection.clone();
        this.filter = other.filter;
        this.limit = other.limit;
        this.watermarks = other.watermarks;
        this.filtersRemain = other.filtersRemain;
        this.countStar = other.countStar;
        this.countStarType = other.countStarType;
        this.aggregates = other.aggregates;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return StreamingChangelogMode.of(table.schema(), streaming, table.fullName());
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        if (countStar != null) {
            return CountStarPushDown.provider(countStar, countStarType, table.fullName());
        }
        PaimonSourceBuilder builder = PaimonSourceBuilder.forTable(table).projection(projection).filter(filter);
        if (aggregates != null) {
            builder.aggregates(aggregates);
        }
        if (streaming) {
            builder.unbounded();
        } else {
            builder.limit(limit);
        }
        PaimonSource source = builder.build();
        Integer parallelism = SourceParallelism.of(table, source, limit);
        if (watermarks == null) {
            return SourceProvider.of(source, parallelism);
        }
        WatermarkStrategy<RowData> strategy =
                ScanWatermarkOptions.apply(watermarks, table.schema().tableOptions());
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(ProviderContext providerContext,
                    StreamExecutionEnvironment env) {
                // Watermarks per source task, after the source: a split (one bucket's changes of one
                // snapshot) is often read within one watermark interval, and the watermark of a split
                // released before the next periodic emission would be lost.
                DataStreamSource<RowData> stream = env.fromSource(source, WatermarkStrategy.noWatermarks(),
                        "paimon: " + table.fullName(), source.getProducedType());
                providerContext.generateUid("source").ifPresent(stream::uid);
                SingleOutputStreamOperator<RowData> watermarked = stream.assignTimestampsAndWatermarks(strategy)
                        .name("watermarks: " + table.fullName());
                providerContext.generateUid("watermarks").ifPresent(watermarked::uid);
                if (parallelism != null) {
                    stream.setParallelism(parallelism);
                    watermarked.setParallelism(parallelism);
                }
                return watermarked;
            }

            @Override
            public boolean isBounded() {
                return !source.isUnbounded();
            }
        };
    }

    /**
     * A lookup join ({@code JOIN t FOR SYSTEM_TIME AS OF o.proc AS d ON ...}): each join task keeps a
     * cache of the table (projected, filtered) that follows its new snapshots; see
     * {@link dev.streamhouse.storage.lookup.LookupTable} and
     * {@link dev.streamhouse.flink.source.lookup.LookupJoinOptions}.
     */
    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        if (systemTable) {
            throw new ValidationException("Cannot look up rows of system table " + table.fullName() + ": lookup "
                    + "joins ('FOR SYSTEM_TIME AS OF') read data tables only; join the system table as a regular "
                    + "(non-temporal) join instead");
        }
        int[] produced = projection != null ? projection : identity(table.rowType().fieldCount());
        int[][] keys = context.getKeys();
        int[] joinKeys = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].length != 1) {
                throw new ValidationException("Cannot look up rows of table " + table.fullName()
                        + ": the join condition uses a nested field; join on top-level columns");
            }
            joinKeys[i] = produced[keys[i][0]];
        }
        LookupJoinSpec spec = new LookupJoinSpec(table, produced, joinKeys, filter);
        try {
            LookupTable.validate(spec.table(), spec.outputProjection(), spec.joinKeys(), spec.filter());
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        return LookupFunctions.provider(spec);
    }

    private static int[] identity(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        return p;
    }

    @Override
    public void applyWatermark(WatermarkStrategy<RowData> watermarkStrategy) {
        this.watermarks = watermarkStrategy;
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
        this.filtersRemain = !pushed.remainingFilters().isEmpty();
        return Result.of(new ArrayList<>(pushed.consumedFilters()), new ArrayList<>(pushed.remainingFilters()));
    }

    /**
     * The local phase of a batch aggregation: {@code COUNT(*)} from metadata where every split knows
     * its row count ({@link CountStarPushDown}), otherwise the aggregates {@link AggregatePushDown}
     * accepts, computed per split from the rows read.
     */
    @Override
    public boolean applyAggregates(List<int[]> groupingSets, List<AggregateExpression> aggregateExpressions,
            DataType producedDataType) {
        if (streaming || systemTable || filtersRemain || limit != null) {
            return false;
        }
        if (CountStarPushDown.isCountStar(groupingSets, aggregateExpressions)) {
            OptionalLong rows = CountStarPushDown.fromMetadata(
                    PaimonSourceBuilder.forTable(table).projection(projection).filter(filter).build());
            if (rows.isPresent()) {
                this.countStar = rows.getAsLong();
                this.countStarType = producedDataType;
                return true;
            }
        }
        if (readsChanges(table)) {
            return false;
        }
        RowType readType = projection == null ? table.rowType() : table.rowType().project(projection);
        Optional<List<LocalAggregate>> pushed =
                AggregatePushDown.of(groupingSets, aggregateExpressions, producedDataType, readType);
        if (pushed.isEmpty()) {
            return false;
        }
        this.aggregates = pushed.get();
        return true;
    }

    /** Whether a batch read of {@code table} returns changes (incremental reads) rather than its rows. */
    private static boolean readsChanges(Table table) {
        Options options = table.schema().tableOptions();
        return options.get(ScanOptions.INCREMENTAL_BETWEEN) != null
                || options.get(ScanOptions.INCREMENTAL_BETWEEN_TIMESTAMP) != null
                || options.get(ScanOptions.INCREMENTAL_TO_AUTO_TAG) != null
                || options.get(ScanOptions.SCAN_MODE) == ScanOptions.StartupMode.INCREMENTAL;
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
