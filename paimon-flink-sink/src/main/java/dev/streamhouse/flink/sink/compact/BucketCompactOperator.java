package dev.streamhouse.flink.sink.compact;

import dev.streamhouse.flink.common.metrics.TableMetricGroup;
import dev.streamhouse.flink.common.metrics.WriterMetrics;

import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableWrite;
import org.apache.flink.api.common.accumulators.IntCounter;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import java.util.List;
import java.util.Objects;

/**
 * The compaction step of the {@link CompactJob}: compacts each (partition, bucket) it receives with
 * one storage writer ({@code TableWrite.compact(partition, bucket, full)}) and, when its input ends,
 * sends the writer's commit messages to the committer as one end-of-input {@link Committable}.
 *
 * <p>Input elements are (partition in {@code BinaryRow.toSerializedBytes()} form, bucket). The number
 * of buckets that changed is counted in the accumulator {@link #CHANGED_BUCKETS}. If the task fails
 * or is cancelled before its input ends, {@link #close()} closes the writer, which deletes the files
 * of compactions not yet handed to the committer; a compaction error fails the job.
 */
public final class BucketCompactOperator extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<Tuple2<byte[], Integer>, Committable>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /** The accumulator counting the buckets whose compaction produced a change. */
    public static final String CHANGED_BUCKETS = "streamhouse-compacted-buckets";

    private final Table table;
    private final boolean fullCompaction;

    private transient TableWrite write;
    private transient IntCounter changed;

    public BucketCompactOperator(Table table, boolean fullCompaction) {
        this.table = Objects.requireNonNull(table, "table");
        this.fullCompaction = fullCompaction;
    }

    @Override
    public void open() throws Exception {
        super.open();
        write = table.newWrite();
        write.reportTo(new WriterMetrics(TableMetricGroup.of(getMetricGroup(), table.fullName())).stats());
        changed = new IntCounter();
        getRuntimeContext().addAccumulator(CHANGED_BUCKETS, changed);
    }

    @Override
    public void processElement(StreamRecord<Tuple2<byte[], Integer>> element) throws Exception {
        BinaryRow partition = BinaryRow.fromSerializedBytes(element.getValue().f0);
        write.compact(partition, element.getValue().f1, fullCompaction);
    }

    @Override
    public void endInput() throws Exception {
        List<CommitMessage> messages = write.prepareCommit();
        changed.add(messages.size());
        if (!messages.isEmpty()) {
            output.collect(new StreamRecord<>(Committable.ofEndOfInput(messages).forTable(table.fullName())));
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (write != null) {
                write.close();
                write = null;
            }
        } finally {
            super.close();
        }
    }
}
