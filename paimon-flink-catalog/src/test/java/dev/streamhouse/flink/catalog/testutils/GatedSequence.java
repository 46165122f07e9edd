package dev.streamhouse.flink.catalog.testutils;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A checkpointed source of the numbers {@code 0 .. count - 1} (parallelism 1) that a test in the same
 * JVM (the MiniCluster's) can hold before chosen numbers, its <i>marks</i>: the source emits nothing
 * from a mark on until the test {@link #release releases} it. While held, the job keeps taking
 * checkpoints (the source only reports that nothing is available), so everything before the mark gets
 * committed, and the test can wait for that in the table before it acts and releases the mark.
 *
 * <p>After a restart the source resumes from its checkpoint; the first number it emits then is never
 * held, so a restart exactly at a mark may let that number through early. Tests only act on numbers
 * below a mark, so this changes no expectation.
 */
public final class GatedSequence {
    /** What the test and the running source share, per source name. */
    private static final class Gate {
        final Map<Long, CompletableFuture<Void>> marks = new ConcurrentHashMap<>();
        final Map<Long, CompletableFuture<Void>> reached = new ConcurrentHashMap<>();
        /** The number the source emits next, or -1 right after (re)start, before its first one. */
        volatile long next = -1;
    }

    private static final Map<String, Gate> GATES = new ConcurrentHashMap<>();

    private GatedSequence() {}

    /**
     * A source named {@code name} of {@code 0 .. count - 1}, at most {@code rowsPerSecond}, held before each of
     * {@code marks} until released.
     */
    public static DataStream<Long> source(StreamExecutionEnvironment env, String name, long count,
            double rowsPerSecond, long... marks) {
        Gate gate = new Gate();
        for (long m : marks) {
            gate.marks.put(m, new CompletableFuture<>());
            gate.reached.put(m, new CompletableFuture<>());
        }
        GATES.put(name, gate);
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(new Generator(name), count,
                new Strategy(name, rowsPerSecond), Types.LONG);
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), name).setParallelism(1);
    }

    /** Waits until source {@code name} holds before {@code mark} (or has passed it after a restart). */
    public static void awaitHeld(String name, long mark) throws Exception {
        gate(name).reached.get(mark).get();
    }

    /** Whether source {@code name} has reached {@code mark}. */
    public static boolean isHeld(String name, long mark) {
        return gate(name).reached.get(mark).isDone();
    }

    /** Lets source {@code name} go on past {@code mark}. */
    public static void release(String name, long mark) {
        gate(name).marks.get(mark).complete(null);
    }

    private static Gate gate(String name) {
        Gate g = GATES.get(name);
        if (g == null) {
            throw new IllegalStateException("no gated source " + name);
        }
        return g;
    }

    /** Emits the index and records the next one for the rate limiter. */
    private static final class Generator implements GeneratorFunction<Long, Long> {
        private static final long serialVersionUID = 1L;
        private final String name;

        Generator(String name) {
            this.name = name;
        }

        @Override
        public Long map(Long index) {
            gate(name).next = index + 1;
            return index;
        }
    }

    private static final class Strategy implements RateLimiterStrategy {
        private static final long serialVersionUID = 1L;
        private final String name;
        private final double rowsPerSecond;

        Strategy(String name, double rowsPerSecond) {
            this.name = name;
            this.rowsPerSecond = rowsPerSecond;
        }

        @Override
        public RateLimiter createRateLimiter(int parallelism) {
            Gate gate = gate(name);
            gate.next = -1;
            RateLimiter rate = RateLimiterStrategy.perSecond(rowsPerSecond).createRateLimiter(parallelism);
            return () -> rate.acquire().thenCompose(v -> hold(gate));
        }

        /** Completes once the next number may be emitted. */
        private static CompletionStage<Void> hold(Gate gate) {
            long next = gate.next;
            CompletableFuture<Void> mark = gate.marks.get(next);
            if (mark == null) {
                return CompletableFuture.completedFuture(null);
            }
            gate.reached.get(next).complete(null);
            return mark;
        }
    }
}
