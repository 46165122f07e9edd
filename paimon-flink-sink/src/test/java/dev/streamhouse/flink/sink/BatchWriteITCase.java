package dev.streamhouse.flink.sink;

import dev.streamhouse.flink.sink.testutils.Jobs;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.bucket.BucketFunction;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.awaitility.Awaitility;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static dev.streamhouse.flink.sink.testutils.SinkTables.TYPE_INFO;
import static dev.streamhouse.flink.sink.testutils.SinkTables.dataFiles;
import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static dev.streamhouse.flink.sink.testutils.SinkTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Batch jobs (and a failing job) writing through {@link PaimonSink} on a MiniCluster. */
class BatchWriteITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = Jobs.miniCluster();

    @TempDir
    java.nio.file.Path tmp;

    private static List<String> readValues(FileStoreTable table) throws Exception {
        // Row kinds of PK reads are those of the stored version (+I or +U); compare values only.
        return TestTables.readAll(table).stream().map(s -> s.substring(2)).sorted().toList();
    }

    private static String shown(int id, long v, String dt) {
        return "(" + id + ", " + v + ", " + dt + ")";
    }

    private static void assertOneBatchSnapshot(FileStoreTable table, PaimonSink sink) {
        List<Snapshot> snapshots = snapshots(table);
        assertThat(snapshots).as("exactly one snapshot per batch job").hasSize(1);
        assertThat(snapshots.get(0).commitKind()).isEqualTo(CommitKind.APPEND);
        assertThat(snapshots.get(0).commitIdentifier()).isEqualTo(Snapshot.BATCH_COMMIT_IDENTIFIER);
        assertThat(snapshots.get(0).commitUser()).isEqualTo(sink.commitUser());
    }

    @Test
    void appendTableFromParallelDatagenWithMoreWriters() throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"));
        StreamExecutionEnvironment env = Jobs.batch(2);
        int n = 1000;
        DataStream<RowData> input = env.fromSource(
                new DataGeneratorSource<>(i -> flinkRow(i.intValue(), i * 10, "d" + (i % 2)), n, TYPE_INFO),
                WatermarkStrategy.noWatermarks(), "datagen").setParallelism(2);
        PaimonSink sink = PaimonSinkBuilder.forTable(table).parallelism(3).build();
        sink.addTo(input);
        env.execute();

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.add(shown(i, i * 10L, "d" + (i % 2)));
        }
        assertThat(readValues(table)).containsExactlyInAnyOrderElementsOf(expected);
        assertOneBatchSnapshot(table, sink);
        // Three writers, each seeing both partitions (rebalanced): one file per writer and partition.
        long files = table.newReadBuilder().newScan().plan().splits().stream().mapToLong(s -> s.files().size()).sum();
        assertThat(files).isEqualTo(6);
    }

    @Test
    void batchJobCommitsAtEndEvenWithCheckpointingConfigured() throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"));
        StreamExecutionEnvironment env = Jobs.batch(2);
        env.enableCheckpointing(100);
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            rows.add(flinkRow(i, i, "d"));
        }
        PaimonSink sink = PaimonSinkBuilder.forTable(table).build();
        sink.addTo(env.fromData(rows, TYPE_INFO));
        env.execute();
        assertThat(readValues(table)).hasSize(50);
        assertOneBatchSnapshot(table, sink);
    }

    @Test
    void primaryKeyTableAppliesUpsertsAndDeletesIntoTheRightBuckets() throws Exception {
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("t"), "bucket", "3", "sink.parallelism", "3");
        List<RowData> rows = new ArrayList<>();
        Map<String, String> model = new TreeMap<>();
        for (int i = 0; i < 300; i++) {
            rows.add(flinkRow(RowKind.INSERT, i, i, "d" + (i % 2)));
        }
        for (int i = 0; i < 300; i += 3) {
            rows.add(flinkRow(RowKind.UPDATE_BEFORE, i, i, "d" + (i % 2)));
            rows.add(flinkRow(RowKind.UPDATE_AFTER, i, i + 1000, "d" + (i % 2)));
        }
        for (int i = 1; i < 300; i += 5) {
            rows.add(flinkRow(RowKind.DELETE, i, i, "d" + (i % 2)));
        }
        rows.add(flinkRow(RowKind.INSERT, 1, 7, "d1")); // deleted, then inserted again
        for (RowData r : rows) {
            String key = r.getInt(0) + "/" + r.getString(2);
            if (r.getRowKind() == RowKind.INSERT || r.getRowKind() == RowKind.UPDATE_AFTER) {
                model.put(key, shown(r.getInt(0), r.getLong(1), r.getString(2).toString()));
            } else {
                model.remove(key);
            }
        }

        StreamExecutionEnvironment env = Jobs.batch(2);
        PaimonSink sink = PaimonSinkBuilder.forTable(table).build(); // parallelism from 'sink.parallelism'
        sink.addTo(env.fromData(rows, TYPE_INFO));
        env.execute();

        assertThat(readValues(table)).containsExactlyInAnyOrderElementsOf(model.values());
        assertOneBatchSnapshot(table, sink);

        // Every row lies in the bucket the table's bucket function gives its bucket key (id).
        BucketFunction function = BucketFunction.of("default", table.schema().rowType().project(List.of("id")));
        BinaryRowConverter bucketKey = new BinaryRowConverter(List.of(DataTypes.INT()));
        Set<Integer> buckets = new HashSet<>();
        ReadBuilder rb = table.newReadBuilder();
        for (DataSplit split : rb.newScan().plan().splits()) {
            buckets.add(split.bucket());
            rb.newRead().createReader(split).forEachRemaining(row ->
                    assertThat(function.bucket(bucketKey.toBinaryRow(new Object[] {row.intAt(0)}), 3))
                            .as("bucket of id %s", row.intAt(0)).isEqualTo(split.bucket()));
        }
        assertThat(buckets).containsExactlyInAnyOrder(0, 1, 2);

        // A read with a bucket-key equality filter finds the row.
        PredicateBuilder pb = new PredicateBuilder(table.schema().rowType());
        ReadBuilder filtered = table.newReadBuilder().withFilter(PredicateBuilder.and(
                pb.equal(0, 3), pb.equal(2, BinaryString.fromString("d1"))));
        List<String> found = new ArrayList<>();
        filtered.newRead().executeFilter().createReader(filtered.newScan().plan().splits())
                .forEachRemaining(r -> found.add(r.intAt(0) + ":" + r.longAt(1)));
        assertThat(found).containsExactly("3:1003");
    }

    @Test
    void dynamicBucketsWithTwoWritersKeepEveryKeyInOneBucket() throws Exception {
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("t"), "bucket", "-1",
                "dynamic-bucket.target-row-num", "40");
        int n = 400;
        runDynamic(table, n, 0);
        checkDynamicLayout(table, n);
        int bucketsBefore = table.newReadBuilder().newScan().plan().splits().size();

        // Update every key with the same writer parallelism: keys stay in their buckets.
        runDynamic(table, n, 1);
        checkDynamicLayout(table, n);
        assertThat(table.newReadBuilder().newScan().plan().splits()).hasSize(bucketsBefore);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.add(shown(i, i + 1, "d" + (i % 2)));
        }
        assertThat(readValues(table)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(snapshots(table)).hasSize(2);
    }

    /**
     * Row {@code i} of job {@code phase} of {@link #dynamicBucketsContinueAtAnyParallelism}: job 0 inserts
     * keys 0..299; job 1 deletes 0..99, updates 100..199 and inserts 300..399; job 2 inserts 0..99
     * again, updates 300..399 and inserts 400..499. A key's partition is {@code d<id % 2>}.
     */
    static GenericRowData phaseRow(int phase, int i) {
        RowKind kind = RowKind.INSERT;
        int id = i;
        long v = phase * 10_000L + i;
        if (phase == 1) {
            if (i < 100) {
                kind = RowKind.DELETE;
                v = i;
            } else if (i < 200) {
                kind = RowKind.UPDATE_AFTER;
            } else {
                id = i + 100;
            }
        } else if (phase == 2 && i >= 100) {
            id = i + 200;
            kind = i < 200 ? RowKind.UPDATE_AFTER : RowKind.INSERT;
        }
        return flinkRow(kind, id, v, "d" + (id % 2));
    }

    static final class PhaseRows implements org.apache.flink.connector.datagen.source.GeneratorFunction<Long, RowData> {
        private final int phase;

        PhaseRows(int phase) {
            this.phase = phase;
        }

        @Override
        public RowData map(Long i) {
            return phaseRow(phase, i.intValue());
        }
    }

    /**
     * A dynamic-bucket table written by a job at parallelism 1, then by jobs at 2 and at 3 (with two
     * bucket assigners): updates and deletes of keys placed by another parallelism land in their
     * buckets, new keys in one bucket each; the table is exact after each job and the hash index
     * holds every key ever written once.
     */
    @Test
    void dynamicBucketsContinueAtAnyParallelism() throws Exception {
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("t"), "bucket", "-1",
                "dynamic-bucket.target-row-num", "30");
        Map<String, String> expected = new TreeMap<>();
        int[] parallelism = {1, 2, 3};
        for (int phase = 0; phase < 3; phase++) {
            int p = parallelism[phase];
            StreamExecutionEnvironment env = Jobs.batch(p);
            DataStream<RowData> input = env.fromSource(
                    new DataGeneratorSource<>(new PhaseRows(phase), 300, TYPE_INFO),
                    WatermarkStrategy.noWatermarks(), "datagen").setParallelism(p);
            FileStoreTable target = phase == 2
                    ? table.copy(Map.of("dynamic-bucket.assigner-parallelism", "2")) : table;
            PaimonSinkBuilder.forTable(target).build().addTo(input);
            env.execute();

            for (int i = 0; i < 300; i++) {
                GenericRowData r = phaseRow(phase, i);
                String key = r.getInt(0) + "/" + r.getString(2);
                if (r.getRowKind() == RowKind.DELETE) {
                    expected.remove(key);
                } else {
                    expected.put(key, shown(r.getInt(0), r.getLong(1), r.getString(2).toString()));
                }
            }
            assertThat(readValues(table)).as("after job %s at parallelism %s", phase, p)
                    .containsExactlyInAnyOrderElementsOf(expected.values());
            FileStoreTable latest = FileStoreTable.load(table.fileIO(), table.location(), table.fullName());
            ReadBuilder rb = latest.newReadBuilder();
            Set<String> seen = new HashSet<>();
            for (DataSplit split : rb.newScan().plan().splits()) {
                rb.newRead().createReader(split).forEachRemaining(row -> assertThat(
                        seen.add(row.intAt(0) + "/" + row.stringAt(2))).as("key %s in two buckets", row.intAt(0)).isTrue());
            }
            Snapshot snapshot = latest.latestSnapshot().orElseThrow();
            List<IndexManifestEntry> index = latest.indexManifestFile().read(snapshot.indexManifest());
            Set<String> indexed = new HashSet<>();
            for (IndexManifestEntry e : index) {
                assertThat(indexed.add(e.partition() + "/" + e.bucket())).as("one index file per bucket").isTrue();
            }
            int everWritten = phase == 0 ? 300 : phase == 1 ? 400 : 500;
            assertThat(index.stream().mapToLong(e -> e.indexFile().rowCount()).sum()).isEqualTo(everWritten);
        }
    }

    private static void runDynamic(FileStoreTable table, int n, long delta) throws Exception {
        StreamExecutionEnvironment env = Jobs.batch(2);
        DataStream<RowData> input = env.fromSource(
                new DataGeneratorSource<>(i -> flinkRow(i.intValue(), i + delta, "d" + (i % 2)), n, TYPE_INFO),
                WatermarkStrategy.noWatermarks(), "datagen").setParallelism(2);
        PaimonSinkBuilder.forTable(table).build().addTo(input);
        env.execute();
    }

    private static void checkDynamicLayout(FileStoreTable table, int n) throws Exception {
        FileStoreTable latest = FileStoreTable.load(table.fileIO(), table.location(), table.fullName());
        Map<String, Integer> bucketOfKey = new HashMap<>();
        Map<BinaryRow, Set<Integer>> bucketsOfPartition = new HashMap<>();
        ReadBuilder rb = latest.newReadBuilder();
        for (DataSplit split : rb.newScan().plan().splits()) {
            bucketsOfPartition.computeIfAbsent(split.partition(), p -> new HashSet<>()).add(split.bucket());
            rb.newRead().createReader(split).forEachRemaining(row -> {
                Integer previous = bucketOfKey.put(row.intAt(0) + "/" + row.stringAt(2), split.bucket());
                assertThat(previous).as("key %s in two buckets", row.intAt(0)).isNull();
            });
        }
        assertThat(bucketOfKey).hasSize(n);
        assertThat(bucketsOfPartition).hasSize(2);
        for (Set<Integer> buckets : bucketsOfPartition.values()) {
            // 200 keys per partition at 40 per bucket; both writers opened buckets (even and odd numbers).
            assertThat(buckets.size()).isGreaterThanOrEqualTo(5);
            assertThat(buckets.stream().map(b -> b % 2).distinct()).containsExactlyInAnyOrder(0, 1);
        }
        Snapshot snapshot = latest.latestSnapshot().orElseThrow();
        assertThat(snapshot.indexManifest()).as("hash index files").isNotNull();
        List<IndexManifestEntry> index = latest.indexManifestFile().read(snapshot.indexManifest());
        assertThat(index).allMatch(e -> e.indexFile().indexType().equals(IndexFileMeta.HASH_INDEX));
        assertThat(index).hasSize(bucketsOfPartition.values().stream().mapToInt(Set::size).sum());
        assertThat(index.stream().mapToLong(e -> e.indexFile().rowCount()).sum()).isEqualTo(n);
    }

    /** Counts files of the table seen by the failing map, to prove the writers had written some. */
    static final AtomicInteger FILES_BEFORE_FAILURE = new AtomicInteger(-1);

    /** Throws at row {@code failAt} once the writers have written files. */
    static final class FailAt implements MapFunction<RowData, RowData> {
        private final int failAt;
        private final String tableDir;
        private int seen;

        FailAt(int failAt, String tableDir) {
            this.failAt = failAt;
            this.tableDir = tableDir;
        }

        @Override
        public RowData map(RowData row) throws Exception {
            if (++seen == failAt) {
                // The writers get the rows when network buffers flush (every 100 ms): fail once they wrote.
                java.nio.file.Path dir = java.nio.file.Path.of(tableDir);
                Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> !dataFiles(dir).isEmpty());
                FILES_BEFORE_FAILURE.set(dataFiles(dir).size());
                throw new IllegalStateException("Injected failure at row " + failAt);
            }
            return row;
        }
    }

    @Test
    void failedJobLeavesNoDataBehind() throws Exception {
        java.nio.file.Path dir = tmp.resolve("t");
        FileStoreTable table = SinkTables.append(dir);
        Configuration conf = Jobs.streamingConfig(2, null);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        DataStream<RowData> input = env.fromSource(new DataGeneratorSource<>(
                        i -> flinkRow(i.intValue(), i, "d" + (i % 3)), 400, RateLimiterStrategy.perSecond(1000),
                        TYPE_INFO), WatermarkStrategy.noWatermarks(), "datagen").setParallelism(1)
                .map(new FailAt(300, dir.toString())).returns(TYPE_INFO).setParallelism(1);
        PaimonSinkBuilder.forTable(table).parallelism(2).build().addTo(input);
        FILES_BEFORE_FAILURE.set(-1);
        assertThatThrownBy(env::execute).hasStackTraceContaining("Injected failure at row 300");

        assertThat(FILES_BEFORE_FAILURE.get()).as("writers had written files").isPositive();
        assertThat(snapshots(table)).isEmpty();
        assertThat(dataFiles(dir)).as("the writers deleted their uncommitted files").isEmpty();
        try (Stream<java.nio.file.Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).doesNotContain("snapshot");
        }
    }
}
