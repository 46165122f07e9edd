package dev.streamhouse.flink.source;

import dev.streamhouse.flink.common.FlinkTypes;
import dev.streamhouse.flink.source.enumerator.AnyReaderSplitAssigner;
import dev.streamhouse.flink.source.enumerator.ContinuousSplitEnumerator;
import dev.streamhouse.flink.source.enumerator.PaimonEnumeratorState;
import dev.streamhouse.flink.source.enumerator.PaimonEnumeratorStateSerializer;
import dev.streamhouse.flink.source.enumerator.StaticSplitEnumerator;
import dev.streamhouse.flink.source.reader.PaimonSourceReader;
import dev.streamhouse.flink.source.reader.PaimonSplitReader;
import dev.streamhouse.flink.source.reader.RecordLimiter;
import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.split.PaimonSplitSerializer;
import dev.streamhouse.storage.options.ConsumerOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.options.StreamReadOptions;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A FLIP-27 source reading a table as Flink {@link RowData} of {@link #producedType()}.
 *
 * <p><b>Bounded</b> (default): one snapshot (the latest when the job starts, unless pinned with
 * {@link Builder#snapshotId}).
 *
 * <p><b>Unbounded</b> ({@link Builder#unbounded()}): a streaming read that starts as the table's options
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

    private PaimonSource(Table table, int[] projection, Predicate filter, Long limit, Long snapshotId,
            boolean unbounded) {
        this.table = table;
        this.projection = projection;
        this.filter = filter;
        this.limit = limit;
        this.snapshotId = snapshotId;
        this.unbounded = unbounded;
    }

    /** A builder reading all columns of {@code table}'s latest snapshot, unfiltered and unlimited. */
    public static Builder builder(Table table) {
        return new Builder(table);
    }

    @Override
    public Boundedness getBoundedness() {
        return unbounded ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    /** Whether this is a streaming read that follows new snapshots ({@link Builder#unbounded()}). */
    public boolean isUnbounded() {
        return unbounded;
    }

    /** The type of the rows read (our types), i.e. the projected table row type. */
    public RowType readType() {
        return table.rowType().project(projection);
    }

    /** The Flink type of the emitted rows. */
    public org.apache.flink.table.types.logical.RowType producedType() {
        return FlinkTypes.toFlinkRowType(readType());
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
    private List<PaimonSplit> planSplits() {
        TableScan.Plan plan = plan();
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
        return new StaticSplitEnumerator(context, new AnyReaderSplitAssigner(), this::planSplits);
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
        StreamTableScan scan = newReadBuilder().newStreamScan();
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
        return new PaimonSourceReader(context,
                () -> new PaimonSplitReader(newReadBuilder().newRead().executeFilter(), limiter), limiter, unbounded);
    }

    @Override
    public String toString() {
        return "PaimonSource{" + table.fullName() + ", columns " + readType().fieldNames()
                + (filter == null ? "" : ", filter " + filter) + (limit == null ? "" : ", limit " + limit)
                + (snapshotId == null ? "" : ", snapshot " + snapshotId) + (unbounded ? ", unbounded" : "") + "}";
    }

    /** Configures a {@link PaimonSource}; {@link #build()} validates. */
    public static final class Builder {
        private final Table table;
        private int[] projection;
        private Predicate filter;
        private Long limit;
        private Long snapshotId;
        private boolean unbounded;

        private Builder(Table table) {
            this.table = Objects.requireNonNull(table, "table");
        }

        /** Read only these table columns (positions in the table's row type), in this order; null for all. */
        public Builder projection(int[] positions) {
            this.projection = positions == null ? null : positions.clone();
            return this;
        }

        /** Read only rows satisfying this predicate over the full table row; null for all rows. */
        public Builder filter(Predicate filter) {
            this.filter = filter;
            return this;
        }

        /** Stop each reader after this many rows; null for no limit. */
        public Builder limit(Long limit) {
            this.limit = limit;
            return this;
        }

        /**
         * Bounded: read this snapshot instead of the one latest when the job starts (time travel).
         * Unbounded: the snapshot where {@code scan.mode} {@code from-snapshot(-full)} starts.
         */
        public Builder snapshotId(long snapshotId) {
            this.snapshotId = snapshotId;
            return this;
        }

        /**
         * Read in streaming mode: start as the table options say ({@code scan.mode}, {@code consumer-id},
         * ...) and follow new snapshots until the job is cancelled, emitting their changes with row
         * kinds. Options: {@code continuous.discovery-interval} (default 10 s),
         * {@code scan.max-splits-per-task} (default 10), {@code consumer-id}. Use with checkpointing for
         * exactly-once and for consumer progress.
         */
        public Builder unbounded() {
            this.unbounded = true;
            return this;
        }

        /** Read one snapshot and finish (the default). */
        public Builder bounded() {
            this.unbounded = false;
            return this;
        }

        /**
         * @throws IllegalArgumentException for a column position out of range or repeated, a filter on a
         *     column the table does not have, a negative limit or snapshot id; for an unbounded read also
         *     for a non-positive {@code continuous.discovery-interval} or {@code scan.max-splits-per-task},
         *     an invalid {@code consumer-id}, or the batch-only option {@code incremental-between}
         * @throws org.apache.flink.table.api.ValidationException when a projected column has no Flink type
         *     (VARIANT), naming the column
         */
        public PaimonSource build() {
            int columns = table.rowType().fieldCount();
            int[] positions = projection;
            if (positions == null) {
                positions = new int[columns];
                for (int i = 0; i < columns; i++) {
                    positions[i] = i;
                }
            }
            boolean[] seen = new boolean[columns];
            for (int p : positions) {
                if (p < 0 || p >= columns) {
                    throw new IllegalArgumentException("Cannot read column " + p + " of table " + table.fullName()
                            + ": it has columns 0 to " + (columns - 1));
                }
                if (seen[p]) {
                    throw new IllegalArgumentException("Cannot read column " + p + " of table " + table.fullName()
                            + " twice in one projection");
                }
                seen[p] = true;
            }
            if (filter != null) {
                for (int field : PredicateBuilder.referencedFields(filter)) {
                    if (field >= columns) {
                        throw new IllegalArgumentException("Cannot filter on column " + field + " of table "
                                + table.fullName() + ": it has columns 0 to " + (columns - 1));
                    }
                }
            }
            if (limit != null && limit < 0) {
                throw new IllegalArgumentException("Cannot limit a read of table " + table.fullName() + " to "
                        + limit + " rows: the limit is negative");
            }
            if (snapshotId != null && snapshotId < 1) {
                throw new IllegalArgumentException("Cannot read snapshot " + snapshotId + " of table "
                        + table.fullName() + ": snapshot ids start at 1");
            }
            if (unbounded) {
                validateStreamingOptions();
            }
            PaimonSource source = new PaimonSource(table, positions, filter, limit, snapshotId, unbounded);
            source.producedType(); // fails early for columns Flink cannot represent
            return source;
        }
    
        private void validateStreamingOptions() {
            Options options = table.schema().tableOptions();
            String name = table.fullName();
            if (options.get(ScanOptions.INCREMENTAL_BETWEEN) != null) {
                throw new IllegalArgumentException("Cannot stream-read table " + name + " with option '"
                        + ScanOptions.INCREMENTAL_BETWEEN.key() + "': it is for batch reads; remove it or read bounded");
            }
            Duration interval = options.get(StreamReadOptions.CONTINUOUS_DISCOVERY_INTERVAL);
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("Cannot stream-read table " + name + ": option '"
                        + StreamReadOptions.CONTINUOUS_DISCOVERY_INTERVAL.key() + "' must be positive, got " + interval);
            }
            int perTask = table.schema().tableOptions().get(PaimonSourceOptions.SCAN_MAX_SPLITS_PER_TASK);
            if (perTask < 1) {
                throw new IllegalArgumentException("Cannot stream-read table " + name + ": option '"
                        + PaimonSourceOptions.SCAN_MAX_SPLITS_PER_TASK.key() + "' must be at least 1, got " + perTask);
            }
            String consumerId = options.get(ConsumerOptions.CONSUMER_ID);
            if (consumerId != null) {
                ConsumerOptions.CONSUMER_ID.parseAndCheck(consumerId); // names the option
            }
        }
    }
}
