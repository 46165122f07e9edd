package dev.streamhouse.flink.sink.testutils;

import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.source.SourceFunction;
import org.apache.flink.table.data.RowData;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A source (parallelism 1) that emits records {@code 0 .. batches * batchSize - 1} of a sequence in
 * batches, one batch per checkpoint: each batch is emitted whole under the checkpoint lock, so no
 * checkpoint splits it, and the next batch only after a checkpoint holding the previous one completed.
 * So every run of a job cuts the input into the same checkpoints and every data commit holds exactly
 * one batch, also after a restore (the number of emitted batches is the state). It ends after a
 * checkpoint holding the last batch completed.
 */
public final class CheckpointedBatchSource implements SourceFunction<RowData>, CheckpointedFunction,
        CheckpointListener {
    private static final long serialVersionUID = 1L;

    private final GeneratorFunction<Long, RowData> sequence;
    private final int batches;
    private final int batchSize;

    private transient ListState<Integer> state;
    private transient Object progress;
    /** Batches emitted; guarded by the checkpoint lock for writes. */
    private transient volatile int emitted;
    /** Batches that a completed checkpoint holds; guarded by {@link #progress}. */
    private transient int completed;
    private transient Map<Long, Integer> emittedAtCheckpoint;
    private transient volatile boolean running;

    public CheckpointedBatchSource(GeneratorFunction<Long, RowData> sequence, int batches, int batchSize) {
        this.sequence = sequence;
        this.batches = batches;
        this.batchSize = batchSize;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("batches", Integer.class));
        progress = new Object();
        emittedAtCheckpoint = new HashMap<>();
        emitted = 0;
        for (Integer b : state.get()) {
            emitted = b;
        }
        completed = emitted;
        running = true;
    }

    @Override
    public void run(SourceContext<RowData> ctx) throws Exception {
        while (running) {
            synchronized (progress) {
                while (running && completed < emitted) {
                    progress.wait();
                }
            }
            if (!running || emitted >= batches) {
                return;
            }
            synchronized (ctx.getCheckpointLock()) {
                long from = (long) emitted * batchSize;
                for (long i = from; i < from + batchSize; i++) {
                    ctx.collect(sequence.map(i));
                }
                emitted++;
            }
        }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        state.update(List.of(emitted));
        synchronized (progress) {
            emittedAtCheckpoint.put(context.getCheckpointId(), emitted);
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        synchronized (progress) {
            Integer held = emittedAtCheckpoint.remove(checkpointId);
            if (held != null && held > completed) {
                completed = held;
                progress.notifyAll();
            }
            emittedAtCheckpoint.keySet().removeIf(id -> id < checkpointId);
        }
    }

    @Override
    public void cancel() {
        running = false;
        if (progress != null) {
            synchronized (progress) {
                progress.notifyAll();
            }
        }
    }
}
