package dev.streamhouse.bench;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
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
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.types.Row;

import java.time.LocalDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * Emits {@code batches} batches of rows with new ids (1, 2, ...), each whole in one call of the reader
 * (so a checkpoint holds whole batches), and the next one only after a checkpoint barrier followed the
 * previous one: each checkpoint, hence each commit of a sink, holds at most one batch. Parallelism 1;
 * a FLIP-27 source, so the same on every Flink line.
 */
final class BarrierPacedBatches implements Source<Row, NumberSequenceSplit, Collection<NumberSequenceSplit>> {
    private static final long serialVersionUID = 1L;
    static final TypeInformation<Row> TYPE = Types.ROW_NAMED(
            new String[] {"id", "i", "b", "d", "s", "ts"},
            Types.LONG, Types.INT, Types.LONG, Types.DOUBLE, Types.STRING, Types.LOCAL_DATE_TIME);
    private static final LocalDateTime EPOCH = LocalDateTime.of(2026, 1, 1, 0, 0);

    /** One number per batch. */
    private final NumberSequenceSource batchNumbers;
    private final int rowsPerBatch;

    BarrierPacedBatches(int batches, int rowsPerBatch) {
        this.batchNumbers = new NumberSequenceSource(0, batches - 1);
        this.rowsPerBatch = rowsPerBatch;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> createEnumerator(
            SplitEnumeratorContext<NumberSequenceSplit> context) {
        return batchNumbers.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> restoreEnumerator(
            SplitEnumeratorContext<NumberSequenceSplit> context, Collection<NumberSequenceSplit> checkpoint) {
        return batchNumbers.restoreEnumerator(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<NumberSequenceSplit> getSplitSerializer() {
        return batchNumbers.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Collection<NumberSequenceSplit>> getEnumeratorCheckpointSerializer() {
        return batchNumbers.getEnumeratorCheckpointSerializer();
    }

    @Override
    public SourceReader<Row, NumberSequenceSplit> createReader(SourceReaderContext context) {
        return new Reader(batchNumbers.createReader(context), rowsPerBatch);
    }

    /** Emits one batch per call, then nothing until the next checkpoint barrier (all in the task's thread). */
    private static final class Reader implements SourceReader<Row, NumberSequenceSplit> {
        private final SourceReader<Long, NumberSequenceSplit> inner;
        private final BatchRows rows;
        private CompletableFuture<Void> barrier;

        Reader(SourceReader<Long, NumberSequenceSplit> inner, int rowsPerBatch) {
            this.inner = inner;
            this.rows = new BatchRows(rowsPerBatch);
        }

        @Override
        public void start() {
            inner.start();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<Row> output) throws Exception {
            if (barrier != null) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            rows.to(output);
            InputStatus status = inner.pollNext(rows);
            if (rows.emittedBatch && status == InputStatus.MORE_AVAILABLE) {
                barrier = new CompletableFuture<>();
                return InputStatus.NOTHING_AVAILABLE;
            }
            return status;
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return barrier != null ? barrier : inner.isAvailable();
        }

        @Override
        public List<NumberSequenceSplit> snapshotState(long checkpointId) {
            if (barrier != null) {
                CompletableFuture<Void> passed = barrier;
                barrier = null;
                passed.complete(null);
            }
            return inner.snapshotState(checkpointId);
        }

        @Override
        public void addSplits(List<NumberSequenceSplit> splits) {
            inner.addSplits(splits);
        }

        @Override
        public void notifyNoMoreSplits() {
            inner.notifyNoMoreSplits();
        }

        @Override
        public void close() throws Exception {
            inner.close();
        }
    }

    /** Turns a batch number into its rows. */
    private static final class BatchRows implements ReaderOutput<Long> {
        private final int rowsPerBatch;
        private ReaderOutput<Row> out;
        private boolean emittedBatch;

        BatchRows(int rowsPerBatch) {
            this.rowsPerBatch = rowsPerBatch;
        }

        void to(ReaderOutput<Row> output) {
            this.out = output;
            this.emittedBatch = false;
        }

        @Override
        public void collect(Long batch) {
            for (int r = 0; r < rowsPerBatch; r++) {
                long id = batch * rowsPerBatch + r + 1;
                Random random = new Random(id);
                out.collect(Row.of(id, random.nextInt(), random.nextLong(), random.nextDouble(),
                        Long.toHexString(random.nextLong()) + "-" + id, EPOCH.plusSeconds(id)));
            }
            emittedBatch = true;
        }

        @Override
        public void collect(Long batch, long timestamp) {
            collect(batch);
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
            throw new UnsupportedOperationException("BarrierPacedBatches emits through the reader output only");
        }

        @Override
        public void releaseOutputForSplit(String splitId) {
            out.releaseOutputForSplit(splitId);
        }
    }
}
