package dev.streamhouse.storage.testutils;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/** Writers racing for {@link FileIO#createIfAbsent} of one file, round after round: exactly one wins each. */
public final class CreateIfAbsentRace {
    private CreateIfAbsentRace() {}

    /** {@code rounds} races of {@code writers} writers for {@code target.apply(round)}. */
    public static void assertExactlyOneWinnerEachRound(FileIO io, IntFunction<Path> target, int rounds, int writers)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < rounds; round++) {
                Path file = target.apply(round);
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Boolean>> racers = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    byte[] content = ("writer-" + w).getBytes(StandardCharsets.UTF_8);
                    racers.add(pool.submit(() -> {
                        go.await();
                        return io.createIfAbsent(file, content);
                    }));
                }
                go.countDown();
                List<Integer> winners = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    if (racers.get(w).get()) {
                        winners.add(w);
                    }
                }
                assertThat(winners).as("winners of round %s", round).hasSize(1);
                assertThat(io.readUtf8(file)).as("content of %s", file).isEqualTo("writer-" + winners.get(0));
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
