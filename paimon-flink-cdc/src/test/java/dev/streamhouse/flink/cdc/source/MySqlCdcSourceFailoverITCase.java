package dev.streamhouse.flink.cdc.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.serialization.SimpleStringEncoder;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.sink.FileSink;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once across a failure, with Debezium's snapshot (the chunked snapshot's failover is in
 * {@link ChunkedSnapshotITCase}): a snapshot long enough to span several checkpoint triggers (each
 * skipped, none failing the job), binlog changes before and after an injected failure that restores
 * the last checkpoint, and an exactly-once file sink. Every change must be in the committed files
 * exactly once, in binlog order per key.
 */
class MySqlCdcSourceFailoverITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).setConfiguration(clusterConfig()).build());

    static final AtomicInteger FAILURES_LEFT = new AtomicInteger();
    static final AtomicInteger RESTORED_ATTEMPTS = new AtomicInteger();

    private static final int SNAPSHOT_ROWS = 20_000;

    static Configuration clusterConfig() {
        Configuration c = new Configuration();
        c.setString("state.backend.type", "hashmap");
        c.setString("restart-strategy.type", "fixed-delay");
        c.setString("restart-strategy.fixed-delay.attempts", "10");
        c.setString("restart-strategy.fixed-delay.delay", "100 ms");
        return c;
    }

    @Test
    void changesAreEmittedExactlyOnceAcrossAFailure(@TempDir Path out) throws Exception {
        MARIADB.execute("CREATE DATABASE fo", "CREATE TABLE fo.t (id INT PRIMARY KEY, v INT)");
        try (var c = MARIADB.rootConnection(); var s = c.createStatement()) {
            StringBuilder insert = new StringBuilder();
            for (int i = 1; i <= SNAPSHOT_ROWS; i++) {
                insert.append(insert.length() == 0 ? "INSERT INTO fo.t VALUES " : ",").append("(").append(i).append(",0)");
                if (i % 1000 == 0) {
                    s.execute(insert.toString());
                    insert.setLength(0);
                }
            }
        }
        FAILURES_LEFT.set(1);
        RESTORED_ATTEMPTS.set(0);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(100);
        env.fromSource(MySqlCdcSourceITCase.source(MARIADB, "fo", "t", false).debeziumSnapshot().build(), WatermarkStrategy.noWatermarks(), "mysql-cdc")
                .map(new FailAfterCheckpoint())
                .sinkTo(FileSink.forRowFormat(new org.apache.flink.core.fs.Path(out.toUri()),
                                new SimpleStringEncoder<String>())
                        .withRollingPolicy(OnCheckpointRollingPolicy.build()).build());
        JobClient job = env.executeAsync("cdc-failover");
        try {
            List<String> expected = new ArrayList<>();
            for (int i = 1; i <= SNAPSHOT_ROWS; i++) {
                expected.add("+I fo.t [" + i + ", 0]");
            }
            await().atMost(Duration.ofMinutes(3)).until(() -> committed(out).size() >= SNAPSHOT_ROWS);
            // Binlog changes until the injected failure has happened, then more after it.
            int round = 0;
            while (FAILURES_LEFT.get() > 0 || round < 3) {
                round++;
                expected.addAll(changeRound(round));
                Thread.sleep(50);
                assertThat(round).as("the injected failure happens within 400 rounds").isLessThan(400);
            }
            for (int r = round + 1; r <= round + 20; r++) {
                expected.addAll(changeRound(r));
            }
            MARIADB.execute("INSERT INTO fo.t VALUES (-1, -1)");
            expected.add("+I fo.t [-1, -1]");
            await().atMost(Duration.ofMinutes(3)).until(() -> committed(out).contains("+I fo.t [-1, -1]"));

            List<String> got = committed(out);
            assertThat(RESTORED_ATTEMPTS.get()).as("a task restored after the failure").isPositive();
            assertThat(duplicates(got)).as("duplicated changes").isEmpty();
            assertThat(got).as("no lost change").containsExactlyInAnyOrderElementsOf(expected);
            assertThat(perKey(got)).as("each key's changes in binlog order").isEqualTo(perKey(expected));
        } finally {
            job.cancel().get();
        }
    }

    /** One round: an insert, an update of a snapshot row and a delete of another. */
    private static List<String> changeRound(int round) {
        int insertId = 100_000 + round;
        int updateId = round;
        int deleteId = SNAPSHOT_ROWS - round;
        MARIADB.execute("INSERT INTO fo.t VALUES (" + insertId + ", " + round + ")",
                "UPDATE fo.t SET v = " + round + " WHERE id = " + updateId,
                "DELETE FROM fo.t WHERE id = " + deleteId);
        return List.of("+I fo.t [" + insertId + ", " + round + "]",
                "U fo.t [" + updateId + ", 0] -> [" + updateId + ", " + round + "]",
                "-D fo.t [" + deleteId + ", 0]");
    }

    /**
     * The committed lines, files in the order they were written: each part file is closed at a
     * checkpoint before the next one is written, so their modification times order them.
     */
    private static List<String> committed(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith("."))
                    .sorted(java.util.Comparator.comparing(MySqlCdcSourceFailoverITCase::modified))
                    .collect(Collectors.toList())) {
                lines.addAll(Files.readAllLines(f));
            }
        }
        return lines;
    }

    private static java.nio.file.attribute.FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> duplicates(List<String> lines) {
        Map<String, Integer> counts = new HashMap<>();
        lines.forEach(l -> counts.merge(l, 1, Integer::sum));
        return counts.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).collect(Collectors.toList());
    }

    private static Map<String, List<String>> perKey(List<String> lines) {
        Map<String, List<String>> byKey = new HashMap<>();
        for (String l : lines) {
            String key = l.substring(l.indexOf('[') + 1, l.indexOf(','));
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(l);
        }
        return byKey;
    }

    /** Fails once, on the first binlog change after a checkpoint this instance saw complete. */
    static final class FailAfterCheckpoint extends RichMapFunction<String, String>
            implements CheckpointedFunction, CheckpointListener {
        private transient boolean armed;

        @Override
        public void initializeState(FunctionInitializationContext context) {
            if (context.isRestored()) {
                RESTORED_ATTEMPTS.incrementAndGet();
            }
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            armed = true;
        }

        @Override
        public String map(String value) {
            if (armed && value.startsWith("U ") && FAILURES_LEFT.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IllegalStateException("Injected failure after a completed checkpoint");
            }
            return value;
        }
    }
}
