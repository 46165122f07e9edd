package dev.streamhouse.flink.sink.testutils;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A source (parallelism 1) that emits records {@code 0 .. batches * batchSize - 1} of a sequence in
 * batches, one batch per checkpoint: each batch is emitted whole in one call of the reader, so no
 * checkpoint splits it, and the next batch only after a checkpoint holding the previous one completed.
 * So every run of a job cuts the input into the same checkpoints and every data commit holds exactly
 * one batch, also after a restore (the reader's split, the next number, is the state). It ends after a
 * checkpoint holding the last batch completed. A FLIP-27 source, so the same on every Flink line.
 */
public final class CheckpointedBatchSource
        implements Source<RowData, NumberSequenceSplit, Collection<NumberSequenceSplit>> {
    private static final long serialVersionUID = 1L;

    private final NumberSequenceSource numbers;
    private final GeneratorFunction<Long, RowData> sequence;
    private final int batchSize;

    private CheckpointedBatchSource(GeneratorFunction<Long, RowData> sequence, int batches, int batchSize) {
        this.numbers = new NumberSequenceSource(0, (long) batches * batchSize - 1);
        this.sequence = sequence;
        this.batchSize = batchSize;
    }

    /** The source as a stream named {@code name}, at parallelism 1. */
    public static DataStream<RowData> stream(StreamExecutionEnvironment env, String name,
            GeneratorFunction<Long, RowData> sequence, int batches, int batchSize, TypeInformation<RowData> type) {
        return env.fromSource(new CheckpointedBatchSource(sequence, batches, batchSize),
                WatermarkStrategy.noWatermarks(), name, type).setParallelism(1);
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> createEnumerator(
            SplitEnumeratorContext<NumberSequenceSplit> context) {
        return numbers.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> restoreEnumerator(
            SplitEnumeratorContext<NumberSequenceSplit> context, Collection<NumberSequenceSplit> checkpoint) {
        return numbers.restoreEnumerator(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<NumberSequenceSplit> getSplitSerializer() {
        return numbers.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Collection<NumberSequenceSplit>> getEnumeratorCheckpointSerializer() {
        return numbers.getEnumeratorCheckpointSerializer();
    }

    @Override
    public SourceReader<RowData, NumberSequenceSplit> createReader(SourceReaderContext context) throws Exception {
        sequence.open(context);
        return new Reader(numbers.createReader(context), sequence, batchSize);
    }

    /**
     * Emits a whole batch per call, then nothing until a checkpoint taken after it completed. Runs in the
     * task's mailbox thread, as do the checkpoint calls, so it needs no locks.
     */
    private static final class Reader implements SourceReader<RowData, NumberSequenceSplit> {
        private final SourceReader<Long, NumberSequenceSplit> inner;
        private final Batch batch;
        /** The number emitted next per checkpoint taken but not yet complete. */
        private final Map<Long, Long> nextAtCheckpoint = new HashMap<>();
        /** The number emitted next; -1 before the reader has its split. */
        private long next = -1;
        /** Numbers below this are in a completed checkpoint. */
        private long committed = -1;
        private CompletableFuture<Void> progress = new CompletableFuture<>();

        Reader(SourceReader<Long, NumberSequenceSplit> inner, GeneratorFunction<Long, RowData> sequence,
                int batchSize) {
            this.inner = inner;
            this.batch = new Batch(sequence, batchSize);
        }

        private boolean held() {
            return next > committed;
        }

        @Override
        public void start() {
            inner.start();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<RowData> output) throws Exception {
            if (held()) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            batch.to(output);
            InputStatus status;
            do {
                status = inner.pollNext(batch);
            } while (status == InputStatus.MORE_AVAILABLE && !batch.complete());
            if (batch.emitted > 0) {
                next = batch.last + 1;
            }
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

    /** Maps the numbers of one batch to records and notes where the batch ends. */
    private static final class Batch implements ReaderOutput<Long> {
        private final GeneratorFunction<Long, RowData> sequence;
        private final int size;
        private ReaderOutput<RowData> out;
        private int emitted;
        private long last;

        Batch(GeneratorFunction<Long, RowData> sequence, int size) {
            this.sequence = sequence;
            this.size = size;
        }

        void to(ReaderOutput<RowData> output) {
            this.out = output;
            this.emitted = 0;
        }

        boolean complete() {
            return emitted > 0 && (last + 1) % size == 0;
        }

        @Override
        public void collect(Long value) {
            try {
                out.collect(sequence.map(value));
            } catch (Exception e) {
                throw new IllegalStateException("cannot generate record " + value, e);
            }
            last = value;
            emitted++;
        }

        @Override
        public void collect(Long value, long timestamp) {
            collect(value);
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            out.emitWatermark(watermark);
        }

        @Override
        public void markIdle() {
            out.markIdle();
        }

        @Override
        public void markActive() {
            out.markActive();
        }

        @Override
        public SourceOutput<Long> createOutputForSplit(String splitId) {
            throw new UnsupportedOperationException("CheckpointedBatchSource emits through the reader output only");
        }

        @Override
        public void releaseOutputForSplit(String splitId) {
            out.releaseOutputForSplit(splitId);
        }
    }
}
