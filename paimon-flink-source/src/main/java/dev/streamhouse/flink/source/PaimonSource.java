package dev.streamhouse.flink.source;

import dev.streamhouse.storage.table.source.TableRead;
import dev.streamhouse.storage.table.source.aggregate.AggregatingTableRead;
import dev.streamhouse.storage.table.source.aggregate.LocalAggregate;
import java.util.List;
import dev.streamhouse.flink.common.FlinkTypes;
import dev.streamhouse.flink.source.enumerator.AnyReaderSplitAssigner;
import dev.streamhouse.flink.common.metrics.ScanMetrics;
import dev.streamhouse.flink.common.metrics.TableMetricGroup;
import dev.streamhouse.flink.source.enumerator.ContinuousSplitEnumerator;
import dev.streamhouse.flink.source.enumerator.MeasuredStreamTableScan;
import dev.streamhouse.flink.source.reader.FetchLag;
import dev.streamhouse.flink.source.enumerator.PaimonEnumeratorState;
import dev.streamhouse.flink.source.enumerator.PaimonEnumeratorStateSerializer;
import dev.streamhouse.flink.source.enumerator.StaticSplitEnumerator;
import dev.streamhouse.flink.source.reader.PaimonSourceReader;
import dev.streamhouse.flink.source.reader.PaimonSplitReader;
import dev.streamhouse.flink.source.reader.RecordLimiter;
import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.split.PaimonSplitSerializer;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.StreamReadOptions;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.TableScan;
import dev.streamhouse.storage.types.RowType;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

import java.util.ArrayList;

/**
 * A FLIP-27 source reading a table as Flink {@link RowData} of {@link #producedType()}; built by
 * {@link PaimonSourceBuilder}.
 *
 * <p><b>Bounded</b> (default): one snapshot (the latest when the job starts, unless pinned with
 * {@link PaimonSourceBuilder#snapshotId}).
 *
 * <p><b>Unbounded</b> ({@link PaimonSourceBuilder#unbounded()}): a streaming read that starts as the table's options
 * say ({@code scan.mode}, {@code scan.snapshot-id}, {@code scan.timestamp-millis}, or the saved progress
 * of {@code consumer-id}; pass per-query options with {@code Table.copy(options)} before
 * building), then emits the changes of every new snapshot, found every
 * {@code continuous.discovery-interval}; snapshots that already wait (a read that starts behind) are
 * planned as fast as the readers read them, without waiting for the interval. Changes keep their row kinds (+I, -U, +U, -D), and each key's
 * changes come in commit order ({@link ContinuousSplitEnumerator}). With {@code consumer-id}, every
 * completed checkpoint records in {@code consumer/consumer-<id>} the first snapshot whose changes a job
 * restored from it might not have emitted yet; a new job with that id continues there.
 *
 * <p>A bounded read's enumerator plans the read once, into one split per (partition, bucket) with files, and hands
 * splits to readers on request. Readers read with the storage {@code TableRead}: projection and filter
 * are pushed into the scan (partition, file and row-group pruning) and the filter is also applied to
 * rows, so every emitted row satisfies it (for changes of a primary-key table, only the conditions on
 * key and partition columns, see {@code TableRead}). Rows of a bounded read are all inserts (+I); a primary-key table's rows are
 * merged first. A limit stops each reader after that many rows.
 *
 * <p>Exactly-once with checkpoints: each reader checkpoints its splits together with how many of their
 * rows it emitted, and a restored reader skips those. The source object is serializable and travels to
 * the JobManager and TaskManagers.
 */
public final class PaimonSource
        implements Source<RowData, PaimonSplit, PaimonEnumeratorState>, ResultTypeQueryable<RowData> {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PaimonSource.class);

    private static final long serialVersionUID = 1L;

    private final Table table;
    private final int[] projection;
    /** Over the full table row; null for none. */
    private final Predicate filter;
    /** Rows per reader; null for none. */
    private final Long limit;
    /** The snapshot to read; null for the latest when the job starts. */
    private final Long snapshotId;
    private final boolean unbounded;
    /** Computed per split instead of emitting rows (one row per split); null for none. */
    private final List<LocalAggregate> aggregates;

    /** A source of checked settings; {@link PaimonSourceBuilder#build()} is the way in. */
    PaimonSource(Table table, int[] projection, Predicate filter, Long limit, Long snapshotId, boolean unbounded,
            List<LocalAggregate> aggregates) {
        this.table = table;
        this.projection = projection;
        this.filter = filter;
        this.limit = limit;
        this.snapshotId = snapshotId;
        this.unbounded = unbounded;
        this.aggregates = aggregates == null ? null : List.copyOf(aggregates);
    }

    @Override
    public Boundedness getBoundedness() {
        return unbounded ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    /** Whether this is a streaming read that follows new snapshots ({@link PaimonSourceBuilder#unbounded()}). */
    public boolean isUnbounded() {
        return unbounded;
    }

    /** The type of the rows read (our types), i.e. the projected table row type. */
    public RowType readType() {
        return table.rowType().project(projection);
    }

    /**
     * The Flink type of the emitted rows: the read rows, or with aggregates the row of their partial
     * results ({@link AggregatingTableRead#outputType}).
     */
    public org.apache.flink.table.types.logical.RowType producedType() {
        return FlinkTypes.toFlinkRowType(
                aggregates == null ? readType() : AggregatingTableRead.outputType(readType(), aggregates));
    }

    @Override
    public TypeInformation<RowData> getProducedType() {
        return InternalTypeInfo.of(producedType());
    }

    /** The pushed-down limit, or null. */
    public Long limit() {
        return limit;
    }

    /**
     * Plans the read as the enumerator of a bounded read will when the job starts, e.g. to infer the
     * parallelism from the number of splits (see {@link ParallelismInference}). Each call plans afresh:
     * unless the snapshot is pinned, a commit in between may change the plan. For an unbounded read this
     * is only an estimate (the splits of the latest snapshot).
     */
    public TableScan.Plan plan() {
        return newReadBuilder().newScan().plan();
    }

    private ReadBuilder newReadBuilder() {
        ReadBuilder rb = table.newReadBuilder().withProjection(projection).withFilter(filter);
        if (snapshotId != null) {
            rb.withSnapshot(snapshotId);
        }
        return rb;
    }

    /** The splits of a fresh plan, numbered within the snapshot they read. */
    private List<PaimonSplit> planSplits(ScanMetrics metrics) {
        TableScan scan = newReadBuilder().withScanListener(metrics).newScan();
        TableScan.Plan plan = metrics.measure(scan::plan, TableScan.Plan::snapshotId);
        List<PaimonSplit> splits = new ArrayList<>(plan.splits().size());
        for (DataSplit split : plan.splits()) {
            splits.add(PaimonSplit.fresh(plan.snapshotId() + "-" + splits.size(), split));
        }
        return splits;
    }

    @Override
    public SplitEnumerator<PaimonSplit, PaimonEnumeratorState> createEnumerator(
            SplitEnumeratorContext<PaimonSplit> context) {
        if (unbounded) {
            return continuousEnumerator(context, null);
        }
        ScanMetrics metrics = new ScanMetrics(TableMetricGroup.of(context.metricGroup(), table.fullName()));
        return new StaticSplitEnumerator(context, new AnyReaderSplitAssigner(), () -> planSplits(metrics));
    }

    @Override
    public SplitEnumerator<PaimonSplit, PaimonEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<PaimonSplit> context, PaimonEnumeratorState checkpoint) {
        if (unbounded) {
            return continuousEnumerator(context, checkpoint);
        }
        return new StaticSplitEnumerator(context, new AnyReaderSplitAssigner(), checkpoint::unassignedSplits);
    }

    /**
     * @param checkpoint null for a fresh start; a state without next snapshot (a bounded read's, or an
     *     unbounded read's before it found where to start) hands out its splits and then starts afresh
     */
    private ContinuousSplitEnumerator continuousEnumerator(SplitEnumeratorContext<PaimonSplit> context,
            PaimonEnumeratorState checkpoint) {
        Options options = table.schema().tableOptions();
        long intervalMillis = options.get(StreamReadOptions.CONTINUOUS_DISCOVERY_INTERVAL).toMillis();
        int perTask = table.schema().tableOptions().get(PaimonSourceOptions.SCAN_MAX_SPLITS_PER_TASK);
        TableMetricGroup metricGroup = TableMetricGroup.of(context.metricGroup(), table.fullName());
        ScanMetrics metrics = new ScanMetrics(metricGroup).withFreshness(metricGroup);
        MeasuredStreamTableScan scan = new MeasuredStreamTableScan(
                newReadBuilder().withScanListener(metrics).newStreamScan(), table, metrics);
        // In the enumerator's worker thread, as the plannings: also while back pressure holds them back.
        context.callAsync(() -> {
            scan.probeFreshness();
            return null;
        }, (ignored, error) -> {
            if (error != null) {
                LOG.warn("Cannot tell how far the streaming read of table {} is behind: {}", table.fullName(),
                        error.toString());
            }
        }, intervalMillis, intervalMillis);
        ContinuousSplitEnumerator.ProgressWriter progress =
                scan.consumerId().isPresent() ? scan::recordConsumerProgress : null;
        return new ContinuousSplitEnumerator(context, scan, checkpoint, intervalMillis,
                Math.multiplyExact(perTask, Math.max(1, context.currentParallelism())), progress, table.fullName());
    }

    @Override
    public SimpleVersionedSerializer<PaimonSplit> getSplitSerializer() {
        return PaimonSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<PaimonEnumeratorState> getEnumeratorCheckpointSerializer() {
        return new PaimonEnumeratorStateSerializer(PaimonSplitSerializer.INSTANCE);
    }

    @Override
    public SourceReader<RowData, PaimonSplit> createReader(SourceReaderContext context) {
        RecordLimiter limiter = limit == null ? RecordLimiter.unlimited() : RecordLimiter.of(limit);
        FetchLag fetchLag = FetchLag.register(context.metricGroup());
        return new PaimonSourceReader(context,
                () -> new PaimonSplitReader(newRead(), limiter, fetchLag), limiter,
                unbounded);
    }

    private TableRead newRead() {
        TableRead read = newReadBuilder().newRead().executeFilter();
        return aggregates == null ? read : new AggregatingTableRead(read, aggregates);
    }

    @Override
    public String toString() {
        return "PaimonSource{" + table.fullName() + ", columns " + readType().fieldNames()
                + (filter == null ? "" : ", filter " + filter) + (limit == null ? "" : ", limit " + limit)
                + (snapshotId == null ? "" : ", snapshot " + snapshotId) + (unbounded ? ", unbounded" : "")
                + (aggregates == null ? "" : ", aggregates " + aggregates) + "}";
    }
}
