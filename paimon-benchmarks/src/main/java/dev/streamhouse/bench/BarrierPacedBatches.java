package dev.streamhouse.bench;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * {@code batches} batches of rows with new ids (1, 2, ...): a source of batch numbers that emits the
 * next number only after a checkpoint barrier followed the previous one, each number turned into its
 * batch's rows downstream. A checkpoint barrier follows whole batches, so each checkpoint, hence each
 * commit of a sink, holds at most one batch. Parallelism 1; a FLIP-27 source, the same on every Flink line.
 */
final class BarrierPacedBatches extends NumberSequenceSource {
    private static final long serialVersionUID = 1L;
    static final TypeInformation<Row> TYPE = Types.ROW_NAMED(
            new String[] {"id", "i", "b", "d", "s", "ts"},
            Types.LONG, Types.INT, Types.LONG, Types.DOUBLE, Types.STRING, Types.LOCAL_DATE_TIME);
    private static final LocalDateTime EPOCH = LocalDateTime.of(2026, 1, 1, 0, 0);

    private BarrierPacedBatches(int batches) {
        super(0, batches - 1);
    }

    /** The rows of {@code batches} batches of {@code rowsPerBatch} as a stream named {@code name}. */
    static DataStream<Row> stream(StreamExecutionEnvironment env, String name, int batches, int rowsPerBatch) {
        return env.fromSource(new BarrierPacedBatches(batches), WatermarkStrategy.noWatermarks(), name)
                .setParallelism(1)
                .flatMap(new BatchRows(rowsPerBatch)).name(name + " rows").returns(TYPE).setParallelism(1);
    }

    @Override
    public SourceReader<Long, NumberSequenceSplit> createReader(SourceReaderContext context) {
        return new Reader(super.createReader(context));
    }

    /** Emits one number per call, then nothing until the next checkpoint barrier (all in the task's thread). */
    private static final class Reader implements SourceReader<Long, NumberSequenceSplit> {
        private final SourceReader<Long, NumberSequenceSplit> inner;
        private CompletableFuture<Void> barrier;

        Reader(SourceReader<Long, NumberSequenceSplit> inner) {
            this.inner = inner;
        }

        @Override
        public void start() {
            inner.start();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<Long> output) throws Exception {
            if (barrier != null) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            InputStatus status = inner.pollNext(output);
            if (status == InputStatus.MORE_AVAILABLE) {
                // The numbers reader emitted one number: wait for a barrier behind it.
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
    private static final class BatchRows implements FlatMapFunction<Long, Row> {
        private static final long serialVersionUID = 1L;
        private final int rowsPerBatch;

        BatchRows(int rowsPerBatch) {
            this.rowsPerBatch = rowsPerBatch;
        }

        @Override
        public void flatMap(Long batch, Collector<Row> out) {
            for (int r = 0; r < rowsPerBatch; r++) {
                long id = batch * rowsPerBatch + r + 1;
                Random random = new Random(id);
                out.collect(Row.of(id, random.nextInt(), random.nextLong(), random.nextDouble(),
                        Long.toHexString(random.nextLong()) + "-" + id, EPOCH.plusSeconds(id)));
            }
        }
    }
}
