package dev.streamhouse.flink.sink.compact;

import dev.streamhouse.flink.sink.ChainedOperatorFactory;
import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.flink.sink.committable.CommittableTypeInfo;
import dev.streamhouse.flink.sink.committer.CommitterOperator;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.CompactionBuckets;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Compacts buckets of a table as a Flink batch job and commits them as one COMPACT snapshot:
 *
 * <pre>
 *   buckets (planned by the caller, parallelism 1) --rebalance--> {@link BucketCompactOperator}
 *   (parallelism p) --committables--> {@link CommitterOperator} (parallelism 1) --> discard
 * </pre>
 *
 * The committer is the sink's, with a plain commit: messages holding only compactions make a COMPACT
 * snapshot; a conflicting commit fails the job, and a failed job's uncommitted files are deleted by
 * the operators' {@code close()}. The job runs in BATCH runtime mode.
 */
public final class CompactJob {
    private final Table table;
    private final List<CompactionBuckets.Bucket> buckets;
    private boolean fullCompaction = true;
    private int parallelism = 1;
    private final String commitUser = UUID.randomUUID().toString();

    /** What a finished job did: how many buckets changed (0: nothing was committed). */
    public record Result(int changedBuckets) {}

    private CompactJob(Table table, List<CompactionBuckets.Bucket> buckets) {
        this.table = Objects.requireNonNull(table, "table");
        this.buckets = List.copyOf(buckets);
    }

    /** A job compacting {@code buckets} (non-empty) of {@code table}. */
    public static CompactJob of(Table table, List<CompactionBuckets.Bucket> buckets) {
        if (buckets.isEmpty()) {
            throw new IllegalArgumentException("Cannot compact table " + table.fullName() + ": no buckets given");
        }
        return new CompactJob(table, buckets);
    }

    public CompactJob fullCompaction(boolean fullCompaction) {
        this.fullCompaction = fullCompaction;
        return this;
    }

    /** How many buckets are compacted at the same time (capped by the number of buckets). */
    public CompactJob parallelism(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("Cannot compact table " + table.fullName()
                    + ": parallelism must be at least 1 but is " + parallelism);
        }
        this.parallelism = parallelism;
        return this;
    }

    /** The commit user of the snapshot this job commits (a fresh UUID per job). */
    public String commitUser() {
        return commitUser;
    }

    /** Builds the job on {@code env} (switched to BATCH runtime mode), runs it and waits for it. */
    public Result run(StreamExecutionEnvironment env) throws Exception {
        Configuration batch = new Configuration();
        batch.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        env.configure(batch);
        String name = table.fullName();
        List<Tuple2<byte[], Integer>> elements = new ArrayList<>();
        for (CompactionBuckets.Bucket pb : buckets) {
            elements.add(Tuple2.of(pb.partition().toSerializedBytes(), pb.bucket()));
        }
        TypeInformation<Tuple2<byte[], Integer>> type = new TupleTypeInfo<>(
                PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO, BasicTypeInfo.INT_TYPE_INFO);
        @SuppressWarnings("deprecation")
        DataStream<Tuple2<byte[], Integer>> source = env.fromCollection(elements, type)
                .name("Buckets: " + name).setParallelism(1);
        SingleOutputStreamOperator<dev.streamhouse.flink.sink.committable.Committable> compacted = source
                .rebalance()
                .transform("Compact: " + name, CommittableTypeInfo.INSTANCE,
                        ChainedOperatorFactory.head(new BucketCompactOperator(table, fullCompaction)))
                .setParallelism(Math.min(parallelism, buckets.size()));
        compacted
                .transform("Committer: " + name, BasicTypeInfo.VOID_TYPE_INFO,
                        ChainedOperatorFactory.always(new CommitterOperator(table, commitUser, CommitAction.append())))
                .setParallelism(1)
                .setMaxParallelism(1)
                .sinkTo(new DiscardingSink<>()).name("End: " + name).setParallelism(1);
        JobExecutionResult result = env.execute("Compact table " + name);
        Integer changed = result.getAccumulatorResult(BucketCompactOperator.CHANGED_BUCKETS);
        return new Result(changed == null ? 0 : changed);
    }
}
