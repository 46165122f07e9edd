package dev.streamhouse.flink.sink.testutils;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A source (parallelism 1) of records {@code 0 .. batches * batchSize - 1} of a sequence, in batches,
 * one batch per checkpoint: each batch is emitted whole in one call of the reader, so no checkpoint
 * splits it, and the next batch only after a checkpoint holding the previous one completed. So every
 * run of a job cuts the input into the same checkpoints and every data commit holds exactly one batch,
 * also after a restore (the reader's split, the next number, is the state). It ends after a checkpoint
 * holding the last batch completed. A FLIP-27 source, so the same on every Flink line.
 */
public final class CheckpointedBatchSource extends NumberSequenceSource {
    private static final long serialVersionUID = 1L;
    private final int batchSize;

    private CheckpointedBatchSource(int batches, int batchSize) {
        super(0, (long) batches * batchSize - 1);
        this.batchSize = batchSize;
    }

    /** The records {@code sequence(0 .. batches * batchSize - 1)} as a stream named {@code name}. */
    public static DataStream<RowData> stream(StreamExecutionEnvironment env, String name,
            MapFunction<Long, RowData> sequence, int batches, int batchSize, TypeInformation<RowData> type) {
        return env.fromSource(new CheckpointedBatchSource(batches, batchSize), WatermarkStrategy.noWatermarks(), name)
                .setParallelism(1)
                .map(sequence).name(name + " records").returns(type).setParallelism(1);
    }

    @Override
    public SourceReader<Long, NumberSequenceSplit> createReader(SourceReaderContext context) {
        return new Reader(super.createReader(context), batchSize);
    }

    /**
     * Emits a whole batch per call, then nothing until a checkpoint taken after it completed. Runs in the
     * task's mailbox thread, as do the checkpoint calls, so it needs no locks. The numbers reader emits
     * one number per call that returns MORE_AVAILABLE, so counting those calls tells the next number.
     */
    private static final class Reader implements SourceReader<Long, NumberSequenceSplit> {
        private final SourceReader<Long, NumberSequenceSplit> inner;
        private final int batchSize;
        /** The number emitted next per checkpoint taken but not yet complete. */
        private final Map<Long, Long> nextAtCheckpoint = new HashMap<>();
        /** The number emitted next; -1 before the reader has its split. */
        private long next = -1;
        /** Numbers below this are in a completed checkpoint. */
        private long committed = -1;
        private CompletableFuture<Void> progress = new CompletableFuture<>();

        Reader(SourceReader<Long, NumberSequenceSplit> inner, int batchSize) {
            this.inner = inner;
            this.batchSize = batchSize;
        }

        private boolean held() {
            return next > committed;
        }

        @Override
        public void start() {
            inner.start();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<Long> output) throws Exception {
            if (held()) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            InputStatus status;
            do {
                status = inner.pollNext(output);
                if (status == InputStatus.MORE_AVAILABLE) {
                    next++;
                }
            } while (status == InputStatus.MORE_AVAILABLE && next % batchSize != 0);
            return status == InputStatus.MORE_AVAILABLE && held() ? InputStatus.NOTHING_AVAILABLE : status;
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return held() ? progress : inner.isAvailable();
        }

        @Override
        public List<NumberSequenceSplit> snapshotState(long checkpointId) {
            nextAtCheckpoint.put(checkpointId, next);
            return inner.snapshotState(checkpointId);
        }

        @Override
        public void addSplits(List<NumberSequenceSplit> splits) {
            for (NumberSequenceSplit s : splits) {
                next = next < 0 ? s.from() : Math.min(next, s.from());
            }
            // What comes from a split was either never emitted or restored from a completed checkpoint.
            committed = Math.max(committed, next);
            inner.addSplits(splits);
        }

        @Override
        public void notifyNoMoreSplits() {
            inner.notifyNoMoreSplits();
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            Long held = nextAtCheckpoint.remove(checkpointId);
            nextAtCheckpoint.keySet().removeIf(id -> id < checkpointId);
            if (held != null && held > committed) {
                committed = held;
                if (!held()) {
                    CompletableFuture<Void> done = progress;
                    progress = new CompletableFuture<>();
                    done.complete(null);
                }
            }
            inner.notifyCheckpointComplete(checkpointId);
        }

        @Override
        public void close() throws Exception {
            inner.close();
        }
    }
}
