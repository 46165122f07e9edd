package dev.streamhouse.flink.sink;

import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.flink.sink.committable.CommittableTypeInfo;
import dev.streamhouse.flink.sink.committer.CommitterOperator;
import dev.streamhouse.flink.sink.compact.AppendCompactCoordinatorOperator;
import dev.streamhouse.flink.sink.compact.AppendCompactTaskTypeInfo;
import dev.streamhouse.flink.sink.compact.AppendCompactWorkerOperator;
import dev.streamhouse.flink.sink.routing.AssignedBucketKeySelector;
import dev.streamhouse.flink.sink.routing.DynamicBucketKeySelector;
import dev.streamhouse.flink.sink.routing.DynamicBucketPartitioner;
import dev.streamhouse.flink.sink.routing.FixedBucketKeySelector;
import dev.streamhouse.flink.sink.routing.FixedBucketPartitioner;
import dev.streamhouse.flink.sink.writer.AssignedBucketWriterOperator;
import dev.streamhouse.flink.sink.writer.BucketAssignerOperator;
import dev.streamhouse.flink.sink.writer.WriterOperator;
import dev.streamhouse.storage.options.WriteTuningOptions;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.AppendCompactCoordinator;
import dev.streamhouse.storage.table.sink.AppendCompactTask;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.CheckpointConfig;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Either;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;

/**
 * Writes a {@code DataStream<RowData>} (rows of the table's row type, with row kinds) into a table,
 * exactly once, as a two-phase commit; built by {@link PaimonSinkBuilder}:
 *
 * <pre>
 *   input --route--> writers (parallelism p) --committables--> committer (parallelism 1) --> discard
 *   (dynamic buckets: input --route--> bucket assigners --route--> writers ...)
 * </pre>
 * A streaming job writing an append table without buckets (not {@code write-only}) also compacts it,
 * as Apache Paimon's does: between writers and committer a compaction coordinator (parallelism 1,
 * {@link AppendCompactCoordinatorOperator}) plans compactions of the committed small files and
 * workers (parallelism p, {@link AppendCompactWorkerOperator}) run them; their results reach the same
 * committer. Writers of fixed-bucket tables compact their own buckets (storage's writer).
 *
 * <ul>
 *   <li>Routing gives each (partition, bucket) exactly one writer: fixed buckets by (partition,
 *       bucket) ({@link FixedBucketPartitioner}); dynamic buckets ({@code bucket = -1} with a primary
 *       key) first by (partition, key) hash to bucket assigners ({@link DynamicBucketPartitioner},
 *       {@link BucketAssignerOperator}, parallelism {@code dynamic-bucket.assigner-parallelism} or
 *       the writers'), then with their bucket by (partition, bucket) like fixed buckets, as Apache
 *       Paimon's sink does, so any parallelism continues a table any other wrote; bucket-unaware
 *       append tables keep the input's distribution (forward, or rebalance when the parallelism
 *       differs).
 *   <li>Writers: {@link WriterOperator}. Committer: {@link CommitterOperator}, which documents when a
 *       checkpoint's files become a snapshot.
 *   <li>Writer parallelism: {@link PaimonSinkBuilder#parallelism}, else table option {@code sink.parallelism},
 *       else the input's parallelism. Other table options (e.g. {@code write-only}) reach the storage
 *       writer unchanged: pass a table copied with dynamic options.
 * </ul>
 *
 * <p>Refused job configurations (checked by {@link #addTo}): in a job that is not in BATCH runtime
 * mode and has checkpointing enabled, unaligned checkpoints, at-least-once checkpoints, and disabled
 * checkpoints after tasks finish (a bounded job's last files would never be committed). A
 * {@link CommitAction#replacesData() replacing} commit needs BATCH runtime mode.
 */
public final class PaimonSink {
    private static final Logger LOG = LoggerFactory.getLogger(PaimonSink.class);

    /** How rows reach writers; decided by the table's bucket mode. */
    enum Routing {
        FIXED_BUCKET,
        DYNAMIC_BUCKET,
        UNAWARE
    }

    private final Table table;
    private final Integer parallelism;
    private final String commitUser;
    private final CommitAction commitAction;
    private final String uidPrefix;
    private final Routing routing;

    /** A sink of {@code b}'s checked settings; {@link PaimonSinkBuilder#build()} is the way in. */
    PaimonSink(PaimonSinkBuilder b, Routing routing) {
        this.table = b.table;
        this.parallelism = b.parallelism;
        this.commitUser = b.commitUser;
        this.commitAction = b.commitAction;
        this.uidPrefix = b.uidPrefix;
        this.routing = routing;
    }

    public Table table() {
        return table;
    }

    /** The commit user this sink starts with (a restored job keeps the one in its state). */
    public String commitUser() {
        return commitUser;
    }

    /**
     * Adds writers, committer and a discarding end to the input's job.
     *
     * @throws IllegalStateException if the job's configuration is refused (see the class comment)
     */
    public DataStreamSink<Void> addTo(DataStream<RowData> input) {
        StreamExecutionEnvironment env = input.getExecutionEnvironment();
        checkJobConfiguration(env.getConfiguration(), env.getCheckpointConfig());
        Table table = withCompactionInterval(this.table, env.getCheckpointConfig());
        int writers = parallelism != null ? parallelism : input.getParallelism();
        String name = table.fullName();

        SingleOutputStreamOperator<Committable> written;
        switch (routing) {
            case FIXED_BUCKET:
                written = input.partitionCustom(new FixedBucketPartitioner(), new FixedBucketKeySelector(table.schema()))
                        .transform("Writer: " + name, CommittableTypeInfo.INSTANCE,
                                ChainedOperatorFactory.always(new WriterOperator(table, commitUser, commitAction.replacesData())))
                        .setParallelism(writers);
                break;
            case DYNAMIC_BUCKET:
                written = addDynamicBucketWriters(input, table, writers);
                break;
            default:
                written = input.transform("Writer: " + name, CommittableTypeInfo.INSTANCE,
                                ChainedOperatorFactory.always(new WriterOperator(table, commitUser, commitAction.replacesData())))
                        .setParallelism(writers);
        }
        DataStream<Committable> toCommit = written;
        if (compactsWithCoordinator(env.getConfiguration())) {
            toCommit = addAppendCompaction(written, table, writers);
        }
        SingleOutputStreamOperator<Void> committed = toCommit
                .transform("Committer: " + name, BasicTypeInfo.VOID_TYPE_INFO,
                        ChainedOperatorFactory.always(new CommitterOperator(table, commitUser, commitAction)))
                .setParallelism(1)
                .setMaxParallelism(1);
        if (uidPrefix != null) {
            written.uid(uidPrefix + "-writer");
            committed.uid(uidPrefix + "-committer");
        }
        DataStreamSink<Void> end = committed.sinkTo(new DiscardingSink<>()).name("End: " + name).setParallelism(1);
        if (uidPrefix != null) {
            end.uid(uidPrefix + "-end");
        }
        return end;
    }

    /**
     * input --(partition, key hash)--> bucket assigners ({@code dynamic-bucket.assigner-parallelism},
     * else as many as writers) --(partition, bucket)--> writers.
     */
    private SingleOutputStreamOperator<Committable> addDynamicBucketWriters(DataStream<RowData> input, Table table,
            int writers) {
        String name = table.fullName();
        Integer parallelism = table.schema().tableOptions().get(WriteTuningOptions.DYNAMIC_BUCKET_ASSIGNER_PARALLELISM);
        int assigners = parallelism != null ? parallelism : writers;
        Integer initialBuckets = table.schema().tableOptions().get(MergeTreeOptions.DYNAMIC_BUCKET_INITIAL_BUCKETS);
        SingleOutputStreamOperator<Tuple2<RowData, Integer>> assigned = input
                .partitionCustom(new DynamicBucketPartitioner(initialBuckets), new DynamicBucketKeySelector(table.schema()))
                .transform("Bucket assigner: " + name, new TupleTypeInfo<>(input.getType(), BasicTypeInfo.INT_TYPE_INFO),
                        ChainedOperatorFactory.always(new BucketAssignerOperator(table, commitUser, initialBuckets, commitAction.replacesData())))
                .setParallelism(assigners);
        if (uidPrefix != null) {
            assigned.uid(uidPrefix + "-bucket-assigner");
        }
        return assigned
                .partitionCustom(new FixedBucketPartitioner(), new AssignedBucketKeySelector(table.schema()))
                .transform("Writer: " + name, CommittableTypeInfo.INSTANCE,
                        ChainedOperatorFactory.always(new AssignedBucketWriterOperator(table, commitUser, commitAction.replacesData())))
                .setParallelism(writers);
    }

    /**
     * Whether this sink compacts a bucket-unaware append table with a coordinator and workers: as
     * Apache Paimon's sink, in STREAMING runtime mode only and not with {@code write-only}.
     */
    private boolean compactsWithCoordinator(ReadableConfig config) {
        return routing == Routing.UNAWARE && AppendCompactCoordinator.compactsStreamingWrites(table)
                && config.get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.STREAMING
                && !commitAction.replacesData();
    }

    /**
     * writers --committables--> coordinator (parallelism 1) --committables and tasks--> workers
     * (as many as writers) --committables--> (the committer).
     */
    private DataStream<Committable> addAppendCompaction(DataStream<Committable> written, Table table, int workers) {
        String name = table.fullName();
        SingleOutputStreamOperator<Either<Committable, AppendCompactTask>> planned = written
                .transform("Compact coordinator: " + name,
                        new EitherTypeInfo<>(CommittableTypeInfo.INSTANCE, AppendCompactTaskTypeInfo.INSTANCE),
                        ChainedOperatorFactory.head(new AppendCompactCoordinatorOperator(table)))
                .setParallelism(1)
                .setMaxParallelism(1);
        SingleOutputStreamOperator<Committable> compacted = planned
                .transform("Compact worker: " + name, CommittableTypeInfo.INSTANCE,
                        ChainedOperatorFactory.head(new AppendCompactWorkerOperator(table)))
                .setParallelism(workers);
        if (uidPrefix != null) {
            planned.uid(uidPrefix + "-compact-coordinator");
            compacted.uid(uidPrefix + "-compact-worker");
        }
        return compacted;
    }

    /**
     * The deprecated {@code changelog-producer.compaction-interval} as Apache Paimon applies it: without
     * {@code full-compaction.delta-commits}, a full compaction every interval rounded up to whole
     * checkpoints.
     */
    static Table withCompactionInterval(Table table, CheckpointConfig checkpoints) {
        Duration interval = table.schema().tableOptions().get(FlinkSinkOptions.CHANGELOG_PRODUCER_COMPACTION_INTERVAL);
        if (interval.isZero() || table.schema().tableOptions().contains(MergeTreeOptions.FULL_COMPACTION_DELTA_COMMITS)
                || !checkpoints.isCheckpointingEnabled()) {
            return table;
        }
        long checkpointMillis = Math.max(1, checkpoints.getCheckpointInterval());
        long deltaCommits = Math.max(1, (interval.toMillis() + checkpointMillis - 1) / checkpointMillis);
        LOG.info("Table {}: 'changelog-producer.compaction-interval' = {} with {} ms checkpoints is a full compaction "
                + "every {} commits", table.fullName(), interval, checkpointMillis, deltaCommits);
        return table.copy(java.util.Map.of(MergeTreeOptions.FULL_COMPACTION_DELTA_COMMITS.key(),
                String.valueOf(Math.min(Integer.MAX_VALUE, deltaCommits))));
    }

    private void checkJobConfiguration(ReadableConfig config, CheckpointConfig checkpoints) {
        SinkJobChecks.check("table " + table.fullName(), commitAction.replacesData(), config, checkpoints);
    }
}
