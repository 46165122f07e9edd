package dev.streamhouse.flink.cdc.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkRange;
import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkReader;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.io.UncheckedIOException;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.apache.flink.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import org.apache.flink.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chunked snapshot with two readers while another client keeps writing: random inserts, updates,
 * deletes and key changes all along, and (through the reader's test hook) changes to each chunk's
 * own keys between its watermarks, which only the binlog window brings into its rows. The change
 * stream must rebuild MySQL's table exactly, every change fitting the state its key has when it
 * arrives (no insert of a present key, no update or delete whose before image differs).
 */
class ChunkedSnapshotITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).setConfiguration(clusterConfig()).build());

    private static final int ROWS = 20_000;
    private static final int CHUNK_SIZE = 500;
    private static final int MAX_KEY = 25_000;
    private static final int SENTINEL = 1_000_000;

    static final AtomicInteger CHUNK_READS = new AtomicInteger();
    static final Set<String> CHUNKS = ConcurrentHashMap.newKeySet();
    static final AtomicInteger FAILURES_LEFT = new AtomicInteger();
    static final AtomicInteger RESTORED = new AtomicInteger();
    static final AtomicInteger SNAPSHOT_LINES = new AtomicInteger();
    static final AtomicInteger BINLOG_LINES = new AtomicInteger();
    static final AtomicInteger MID_SNAPSHOT_CHECKPOINTS = new AtomicInteger();

    static Configuration clusterConfig() {
        Configuration c = new Configuration();
        c.setString("state.backend.type", "hashmap");
        c.setString("restart-strategy.type", "fixed-delay");
        c.setString("restart-strategy.fixed-delay.attempts", "10");
        c.setString("restart-strategy.fixed-delay.delay", "100 ms");
        return c;
    }

    @AfterEach
    void clearHook() {
        ChunkReader.setTestHook(null);
    }

    private static void createTable(String database) {
        MARIADB.execute("CREATE DATABASE " + database,
                "CREATE TABLE " + database + ".t (id INT PRIMARY KEY, v INT, w INT)",
                "INSERT INTO " + database + ".t SELECT seq, seq % 100, 0 FROM " + database + ".seq_1_to_" + ROWS);
    }

    /**
     * Between each chunk's watermarks: an update, a delete and a re-insert of keys of the chunk, then
     * a pause that stretches the snapshot over several checkpoints.
     */
    private static void changeEveryChunkBetweenItsWatermarks(String table, long pauseMillis) {
        CHUNK_READS.set(0);
        CHUNKS.clear();
        ChunkReader.setTestHook((id, range) -> {
            CHUNK_READS.incrementAndGet();
            CHUNKS.add(range.toString());
            long lower = lowerOf(range);
            MARIADB.execute("UPDATE " + table + " SET w = w + 1000 WHERE id = " + (lower + 1),
                    "DELETE FROM " + table + " WHERE id = " + (lower + 3),
                    "INSERT IGNORE INTO " + table + " VALUES (" + (lower + 3) + ", -1, -1)");
            sleep(pauseMillis);
        });
    }

    private static long lowerOf(ChunkRange range) {
        return range.lower() == null ? 0 : ((Number) range.lower()[0]).longValue();
    }

    private static MySqlCdcSourceBuilder<String> source(String database) {
        return MySqlCdcSource.<String>builder().hostname(MARIADB.host()).port(MARIADB.port())
                .username(MariaDbExtension.CDC_USER).password(MariaDbExtension.CDC_PASSWORD)
                .databaseName(database).tableName("t").serverIdRange(6100, 6101).snapshotChunkSize(CHUNK_SIZE)
                .deserializer(new ChangeLines());
    }

    @Test
    void changesDuringTheSnapshotEndInMySqlsState() throws Exception {
        createTable("rc");
        changeEveryChunkBetweenItsWatermarks("rc.t", 10);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(200);
        List<String> lines = new ArrayList<>();
        try (RandomWriter writer = new RandomWriter(MARIADB, "rc.t", MAX_KEY, 17);
                CloseableIterator<String> it = env.fromSource(source("rc").build(), WatermarkStrategy.noWatermarks(),
                        "mysql-cdc").executeAndCollect()) {
            long binlogLines = 0;
            while (binlogLines < 300) {
                String line = it.next();
                lines.add(line);
                binlogLines += line.startsWith("B ") ? 1 : 0;
            }
            writer.close();
            assertThat(writer.statements()).isPositive();
            MARIADB.execute("INSERT INTO rc.t VALUES (" + SENTINEL + ", 0, 0)");
            String line;
            do {
                line = it.next();
                lines.add(line);
            } while (!line.equals("B +I - " + SENTINEL + ",0,0"));
        }
        assertThat(CHUNKS.size()).as("chunks").isBetween(20, 80);
        List<String> problems = new ArrayList<>();
        Map<String, String> rebuilt = ChangeLines.replay(lines, problems);
        assertThat(problems).as("changes that do not fit their key's state, in arrival order").isEmpty();
        assertThat(new TreeMap<>(rebuilt)).isEqualTo(new TreeMap<>(RandomWriter.rows(MARIADB, "rc.t")));
    }

    @Test
    void aFailureInTheMiddleOfTheSnapshotLosesAndRepeatsNothing(@TempDir Path out) throws Exception {
        createTable("fs");
        changeEveryChunkBetweenItsWatermarks("fs.t", 25);
        FAILURES_LEFT.set(1);
        RESTORED.set(0);
        SNAPSHOT_LINES.set(0);
        BINLOG_LINES.set(0);
        MID_SNAPSHOT_CHECKPOINTS.set(0);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(100);
        env.fromSource(source("fs").build(), WatermarkStrategy.noWatermarks(), "mysql-cdc")
                .map(new FailOnceMidSnapshot())
                .sinkTo(FileSink.forRowFormat(new org.apache.flink.core.fs.Path(out.toUri()),
                                new SimpleStringEncoder<String>())
                        .withBucketAssigner(new BasePathBucketAssigner<>())
                        .withRollingPolicy(OnCheckpointRollingPolicy.build()).build());
        JobClient job = env.executeAsync("chunked-snapshot-failover");
        try {
            try (RandomWriter writer = new RandomWriter(MARIADB, "fs.t", MAX_KEY, 23)) {
                await().atMost(Duration.ofMinutes(3)).until(() -> committed(out).stream()
                        .filter(l -> l.contains(" B ")).count() >= 300);
            }
            MARIADB.execute("INSERT INTO fs.t VALUES (" + SENTINEL + ", 0, 0)");
            await().atMost(Duration.ofMinutes(3)).until(() -> committed(out).stream()
                    .anyMatch(l -> l.endsWith(" B +I - " + SENTINEL + ",0,0")));
            assertThat(FAILURES_LEFT.get()).as("the injected failure happened").isZero();
            assertThat(RESTORED.get()).as("tasks restored from a checkpoint taken during the snapshot").isPositive();
            assertThat(MID_SNAPSHOT_CHECKPOINTS.get()).as("checkpoints completed while snapshot rows flowed")
                    .isPositive();
            assertThat(CHUNK_READS.get()).as("chunk reads: only chunks not emitted before the checkpoint again")
                    .isLessThan(2 * CHUNKS.size());
            List<String> tagged = committed(out);
            assertThat(tagged.stream().filter(l -> l.contains(" B ")).map(l -> l.substring(0, l.indexOf(' ')))
                    .distinct().toList()).as("one reader reads the binlog").hasSize(1);
            List<String> lines = tagged.stream().map(l -> l.substring(l.indexOf(' ') + 1)).toList();
            List<String> problems = new ArrayList<>();
            Map<String, String> rebuilt = ChangeLines.replay(ChangeLines.snapshotThenBinlog(lines), problems);
            assertThat(problems).as("duplicated or lost changes").isEmpty();
            assertThat(new TreeMap<>(rebuilt)).isEqualTo(new TreeMap<>(RandomWriter.rows(MARIADB, "fs.t")));
        } finally {
            job.cancel().get();
        }
    }

    /**
     * A VARCHAR key in a case-insensitive collation: the chunks and the binlog window order keys by
     * the server's weight strings, and key changes that only change the letter case are key changes.
     */
    @Test
    void keysInALinguisticCollationWithChangesDuringTheSnapshot() throws Exception {
        MARIADB.execute("CREATE DATABASE sk", "CREATE TABLE sk.t (name VARCHAR(12) PRIMARY KEY, v INT, w INT) "
                        + "COLLATE utf8mb4_general_ci",
                "INSERT INTO sk.t SELECT CONCAT(ELT(1 + seq % 3, 'key', 'Key', 'KEY'), seq), seq, 0 "
                        + "FROM sk.seq_1_to_5000");
        CHUNKS.clear();
        ChunkReader.setTestHook((id, range) -> {
            CHUNKS.add(range.toString());
            String lower = range.lower() == null ? "key1" : (String) range.lower()[0];
            MARIADB.execute("UPDATE sk.t SET w = w + 1000 WHERE name = '" + lower + "'",
                    "INSERT IGNORE INTO sk.t VALUES ('" + lower + "0', -1, -1)",
                    "UPDATE IGNORE sk.t SET name = UPPER(name) WHERE name = '" + lower + "1'");
        });
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(200);
        List<String> lines = new ArrayList<>();
        try (RandomWriter writer = new RandomWriter(MARIADB, "sk.t", "name", 6000,
                        (n, random) -> "'" + new String[] {"key", "Key", "KEY", "kEy"}[random.nextInt(4)] + n + "'", 29);
                CloseableIterator<String> it = env.fromSource(MySqlCdcSource.<String>builder()
                        .hostname(MARIADB.host()).port(MARIADB.port()).username(MariaDbExtension.CDC_USER)
                        .password(MariaDbExtension.CDC_PASSWORD).databaseName("sk").tableName("t")
                        .serverIdRange(6200, 6201).snapshotChunkSize(200).deserializer(new ChangeLines()).build(),
                        WatermarkStrategy.noWatermarks(), "mysql-cdc").executeAndCollect()) {
            long binlogLines = 0;
            while (binlogLines < 300) {
                String line = it.next();
                lines.add(line);
                binlogLines += line.startsWith("B ") ? 1 : 0;
            }
            writer.close();
            MARIADB.execute("INSERT INTO sk.t VALUES ('zz-sentinel', 0, 0)");
            String line;
            do {
                line = it.next();
                lines.add(line);
            } while (!line.equals("B +I - zz-sentinel,0,0"));
        }
        assertThat(CHUNKS.size()).as("chunks").isBetween(20, 40);
        List<String> problems = new ArrayList<>();
        Map<String, String> rebuilt = ChangeLines.replay(lines, problems);
        assertThat(problems).as("changes that do not fit their key's state, in arrival order").isEmpty();
        assertThat(new TreeMap<>(rebuilt)).isEqualTo(new TreeMap<>(RandomWriter.rows(MARIADB, "sk.t")));
    }

    /**
     * DDL on a table after its chunks were read, while the snapshot goes on with other tables, is
     * followed: the binlog starts with the definitions read at the start and applies the DDL where
     * it was made, so the later change decodes with the new column.
     */
    @Test
    void ddlOnATableAfterItsChunksWereReadIsFollowed() throws Exception {
        MARIADB.execute("CREATE DATABASE dd", "CREATE TABLE dd.a (id INT PRIMARY KEY, v INT)",
                "INSERT INTO dd.a VALUES (1, 1)", "CREATE TABLE dd.b (id INT PRIMARY KEY, v INT)",
                "INSERT INTO dd.b VALUES (1, 1)");
        // One reader reads a's only chunk, then b's: a changes after its rows were read.
        AtomicInteger altered = new AtomicInteger();
        ChunkReader.setTestHook((id, range) -> {
            if (id.table().equals("b") && altered.getAndIncrement() == 0) {
                MARIADB.execute("ALTER TABLE dd.a ADD COLUMN w INT", "INSERT INTO dd.a VALUES (2, 2, 2)");
            }
        });
        List<String> lines = new ArrayList<>();
        try (CloseableIterator<String> it = sourceWithoutRestarts("dd")) {
            while (!lines.contains("B +I - 2,2,2")) {
                assertThat(it.hasNext()).as("lines so far: %s", lines).isTrue();
                lines.add(it.next());
            }
        }
        assertThat(altered.get()).isPositive();
        assertThat(lines).containsExactly("S +I - 1,1", "S +I - 1,1", "B +I - 2,2,2");
    }

    /**
     * DDL on a table before its chunks are read fails the read when the binlog reaches it, naming
     * the table: its chunks were read with the columns of the start, and would miss the new one.
     */
    @Test
    void ddlOnATableBeforeItsChunksAreReadIsRefusedNamingTheTable() throws Exception {
        MARIADB.execute("CREATE DATABASE de", "CREATE TABLE de.a (id INT PRIMARY KEY, v INT)",
                "INSERT INTO de.a VALUES (1, 1)", "CREATE TABLE de.b (id INT PRIMARY KEY, v INT)",
                "INSERT INTO de.b VALUES (1, 1)");
        AtomicInteger altered = new AtomicInteger();
        ChunkReader.setTestHook((id, range) -> {
            if (id.table().equals("a") && altered.getAndIncrement() == 0) {
                MARIADB.execute("ALTER TABLE de.b ADD COLUMN w INT", "INSERT INTO de.b VALUES (2, 2, 2)");
            }
        });
        Throwable failure = null;
        try (CloseableIterator<String> it = sourceWithoutRestarts("de")) {
            while (it.hasNext()) {
                it.next();
            }
        } catch (Exception e) {
            failure = e;
        }
        assertThat(altered.get()).isPositive();
        assertThat(failure).isNotNull();
        assertThat(org.apache.flink.util.ExceptionUtils.stringifyException(failure))
                .contains("table de.b changed its definition (ALTER TABLE de.b ADD COLUMN w INT)",
                        "before or while its chunks were read", "Restart the job without its state");
    }

    private static CloseableIterator<String> sourceWithoutRestarts(String database) throws Exception {
        Configuration noRestarts = new Configuration();
        noRestarts.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(noRestarts);
        env.setParallelism(1);
        return env.fromSource(MySqlCdcSource.<String>builder().hostname(MARIADB.host()).port(MARIADB.port())
                .username(MariaDbExtension.CDC_USER).password(MariaDbExtension.CDC_PASSWORD).databaseName(database)
                .deserializer(new ChangeLines()).build(), WatermarkStrategy.noWatermarks(), "mysql-cdc")
                .executeAndCollect();
    }

    /**
     * The committed lines (each tagged with its subtask), files in the order they were written: a
     * part file is closed at a checkpoint before the subtask writes the next, so their modification
     * times order them. In-progress files start with a dot.
     */
    private static List<String> committed(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        collectCommitted(dir, files);
        files.sort(Comparator.comparing(ChunkedSnapshotITCase::modified));
        List<String> lines = new ArrayList<>();
        for (Path p : files) {
            lines.addAll(Files.readAllLines(p));
        }
        return lines;
    }

    /**
     * Walks without reading the attributes of in-progress files: the sink renames them away while
     * the test polls, and {@code Files.walk} fails on an entry that vanished after it was listed.
     */
    private static void collectCommitted(Path dir, List<Path> into) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, p -> !p.getFileName().toString().startsWith("."))) {
            for (Path entry : entries) {
                if (Files.isDirectory(entry)) {
                    collectCommitted(entry, into);
                } else {
                    into.add(entry);
                }
            }
        }
    }

    private static FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Fails once, on a snapshot row after a checkpoint completed and 3,000 snapshot rows went by; tags
     * each line with its subtask.
     */
    static final class FailOnceMidSnapshot extends RichMapFunction<String, String>
            implements CheckpointedFunction, CheckpointListener {
        private transient boolean armed;

        @Override
        public void initializeState(FunctionInitializationContext context) {
            if (context.isRestored()) {
                RESTORED.incrementAndGet();
            }
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            armed = true;
            if (SNAPSHOT_LINES.get() > 0 && BINLOG_LINES.get() == 0) {
                MID_SNAPSHOT_CHECKPOINTS.incrementAndGet();
            }
        }

        @Override
        public String map(String value) {
            if (value.startsWith("B ")) {
                BINLOG_LINES.incrementAndGet();
            }
            if (value.startsWith("S ") && SNAPSHOT_LINES.incrementAndGet() > 3_000 && armed
                    && FAILURES_LEFT.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IllegalStateException("Injected failure in the middle of the snapshot");
            }
            return getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() + " " + value;
        }
    }
}
