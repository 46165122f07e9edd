package dev.streamhouse.flink.catalog.testutils;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A checkpointed source of the numbers {@code 0 .. count - 1} (parallelism 1) that a test in the same
 * JVM (the MiniCluster's) can hold before chosen numbers, its <i>marks</i>: the source emits nothing
 * from a mark on until the test {@link #release releases} it. While held, the job keeps taking
 * checkpoints (the reader only reports that nothing is available), so everything before the mark gets
 * committed, and the test can wait for that in the table before it acts and releases the mark. After
 * a restart the source resumes from its checkpoint, and is held again at an unreleased mark.
 */
public final class GatedSequence {
    /** The marks of one source, shared by the test and the running reader. */
    private static final class Gate {
        final Map<Long, CompletableFuture<Void>> released = new ConcurrentHashMap<>();
    }

    private static final Map<String, Gate> GATES = new ConcurrentHashMap<>();

    private GatedSequence() {}

    /** A source named {@code name} of {@code 0 .. count - 1}, held before each of {@code marks} until released. */
    public static DataStream<Long> source(StreamExecutionEnvironment env, String name, long count, long... marks) {
        Gate gate = new Gate();
        for (long m : marks) {
            gate.released.put(m, new CompletableFuture<>());
        }
        GATES.put(name, gate);
        return env.fromSource(new Source(name, count), WatermarkStrategy.noWatermarks(), name).setParallelism(1);
    }

    /** Lets source {@code name} go on past {@code mark}. */
    public static void release(String name, long mark) {
        gate(name).released.get(mark).complete(null);
    }

    private static Gate gate(String name) {
        Gate g = GATES.get(name);
        if (g == null) {
            throw new IllegalStateException("no gated source " + name);
        }
        return g;
    }

    private static final class Source extends NumberSequenceSource {
        private static final long serialVersionUID = 1L;
        private final String name;

        Source(String name, long count) {
            super(0, count - 1);
            this.name = name;
        }

        @Override
        public SourceReader<Long, NumberSequenceSplit> createReader(SourceReaderContext context) {
            return new Reader(super.createReader(context), gate(name));
        }
    }

    /** Knows the number it emits next (from its split, then from what it emitted) and holds at marks. */
    private static final class Reader implements SourceReader<Long, NumberSequenceSource.NumberSequenceSplit> {
        private final SourceReader<Long, NumberSequenceSource.NumberSequenceSplit> inner;
        private final Gate gate;
        /** The number emitted next; -1 before the reader has a split. */
        private volatile long next = -1;

        Reader(SourceReader<Long, NumberSequenceSource.NumberSequenceSplit> inner, Gate gate) {
            this.inner = inner;
            this.gate = gate;
        }

        /** The release of the mark the reader is held at, or null if it may emit. */
        private CompletableFuture<Void> hold() {
            CompletableFuture<Void> release = gate.released.get(next);
            return release == null || release.isDone() ? null : release;
        }

        @Override
        public void start() {
            inner.start();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<Long> output) throws Exception {
            if (hold() != null) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            InputStatus status = inner.pollNext(new Recording(output));
            return status == InputStatus.MORE_AVAILABLE && hold() != null ? InputStatus.NOTHING_AVAILABLE : status;
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            CompletableFuture<Void> release = hold();
            return release == null ? inner.isAvailable() : release.thenCombine(inner.isAvailable(), (a, b) -> null);
        }

        @Override
        public List<NumberSequenceSource.NumberSequenceSplit> snapshotState(long checkpointId) {
            return inner.snapshotState(checkpointId);
        }

        @Override
        public void addSplits(List<NumberSequenceSource.NumberSequenceSplit> splits) {
            for (NumberSequenceSource.NumberSequenceSplit s : splits) {
                next = next < 0 ? s.from() : Math.min(next, s.from());
            }
            inner.addSplits(splits);
        }

        @Override
        public void notifyNoMoreSplits() {
            inner.notifyNoMoreSplits();
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            inner.notifyCheckpointComplete(checkpointId);
        }

        @Override
        public void close() throws Exception {
            inner.close();
        }

        /** Passes records on, noting the number after each. */
        private final class Recording implements ReaderOutput<Long> {
            private final ReaderOutput<Long> out;

            Recording(ReaderOutput<Long> out) {
                this.out = out;
            }

            @Override
            public void collect(Long value) {
                next = value + 1;
                out.collect(value);
            }

            @Override
            public void collect(Long value, long timestamp) {
                next = value + 1;
                out.collect(value, timestamp);
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
                throw new UnsupportedOperationException("GatedSequence emits through the reader output only");
            }

            @Override
            public void releaseOutputForSplit(String splitId) {
                out.releaseOutputForSplit(splitId);
            }
        }
    }
}
