package dev.streamhouse.flink.sink;

import dev.streamhouse.flink.sink.testutils.FailAfterCheckpoint;
import dev.streamhouse.flink.sink.testutils.Jobs;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.types.RowType;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

import static dev.streamhouse.flink.sink.testutils.SinkTables.TYPE_INFO;
import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Streaming jobs compact the append tables they write, as Apache Paimon 1.3.1's do: the writers of a
 * fixed-bucket table compact their buckets, and a table without buckets gets a compaction coordinator
 * and workers. With short checkpoints and injected failures every row lands exactly once, each fixed
 * bucket keeps its row order, and the table holds fewer files than the job wrote.
 */
class AppendCompactionITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = Jobs.miniCluster();

    private static final int ROWS = 3000;

    @TempDir
    java.nio.file.Path tmp;

    /** The table the input waits on; the MiniCluster runs in this JVM. */
    private static volatile FileStoreTable awaited;
    private static volatile boolean compacted;

    /** Row i = (i, i, d(i % 3)); records the next index for {@link CompactionGate}. */
    static final class Sequence implements GeneratorFunction<Long, RowData> {
        @Override
        public RowData map(Long i) {
            NEXT_INDEX.set(i + 1);
            return flinkRow(i.intValue(), i, "d" + (i % 3));
        }
    }

    private static final int PACED_ROWS = 300;
    private static final int ROWS_PER_CHECKPOINT = 100;
    private static final AtomicLong NEXT_INDEX = new AtomicLong();

    /**
     * Paces the input by checkpoints, not by a clock: {@value #ROWS_PER_CHECKPOINT} rows per completed
     * checkpoint (so the job commits many small files), and the last {@value #PACED_ROWS} rows only once
     * a checkpoint completed after which the table has a COMPACT snapshot, so the job cannot end before
     * compaction had its chance. Waiting never blocks the source thread: checkpoints go on meanwhile.
     */
    static final class CompactionGate implements RateLimiterStrategy {
        @Override
        public RateLimiter createRateLimiter(int parallelism) {
            return new RateLimiter() {
                private int budget = ROWS_PER_CHECKPOINT;
                private CompletableFuture<Void> waiting;

                private boolean mayEmit() {
                    boolean held = NEXT_INDEX.get() >= ROWS - PACED_ROWS && !compacted;
                    if (held || budget == 0) {
                        return false;
                    }
                    budget--;
                    return true;
                }

                @Override
                public synchronized CompletionStage<Void> acquire() {
                    if (mayEmit()) {
                        return CompletableFuture.completedFuture(null);
                    }
                    waiting = new CompletableFuture<>();
                    return waiting;
                }

                /**
                 * Flink 2's abstract variant (1.20 has only {@link #acquire()}). The rate-limited reader of
                 * both lines asks for one row at a time through {@code acquire()}; no other count is expected.
                 */
                public CompletionStage<Void> acquire(int rows) {
                    if (rows != 1) {
                        throw new IllegalArgumentException("CompactionGate paces single rows, asked for " + rows);
                    }
                    return acquire();
                }

                @Override
                public synchronized void notifyCheckpointComplete(long checkpointId) {
                    if (!compacted && compactSnapshots(awaited) > 0) {
                        compacted = true;
                    }
                    budget = ROWS_PER_CHECKPOINT;
                    if (waiting != null && mayEmit()) {
                        CompletableFuture<Void> released = waiting;
                        waiting = null;
                        released.complete(null);
                    }
                }
            };
        }
    }

    private static long compactSnapshots(FileStoreTable table) {
        return SinkTables.snapshots(table).stream().filter(s -> s.commitKind() == CommitKind.COMPACT).count();
    }

    private void run(FileStoreTable table, int failures) throws Exception {
        awaited = table;
        compacted = false;
        NEXT_INDEX.set(0);
        FailAfterCheckpoint.reset(failures);
        StreamExecutionEnvironment env = Jobs.streaming(2, 100L);
        DataStream<RowData> input = env.fromSource(new DataGeneratorSource<>(new Sequence(), ROWS,
                        new CompactionGate(), TYPE_INFO), WatermarkStrategy.noWatermarks(), "sequence")
                .setParallelism(1)
                .map(new FailAfterCheckpoint()).returns(TYPE_INFO).setParallelism(1);
        PaimonSinkBuilder.forTable(table).parallelism(2).build().addTo(input);
        env.execute();
        assertThat(FailAfterCheckpoint.FAILURES_LEFT.get()).isZero();
        assertThat(FailAfterCheckpoint.RESTORES.get()).isEqualTo(failures);
    }

    /** The values of v per bucket ("partition/bucket") in read order. */
    private static Map<String, List<Long>> valuesByBucket(FileStoreTable table) throws Exception {
        Map<String, List<Long>> out = new TreeMap<>();
        RowType type = table.rowType();
        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            List<Long> values = out.computeIfAbsent(split.partition() + "/" + split.bucket(), k -> new ArrayList<>());
            table.newReadBuilder().newRead().createReader(split)
                    .forEachRemaining(r -> values.add(InternalRowUtils.copyToGeneric(r, type).longAt(1)));
        }
        return out;
    }

    private static List<Long> allValues(FileStoreTable table) throws Exception {
        List<Long> out = new ArrayList<>();
        valuesByBucket(table).values().forEach(out::addAll);
        out.sort(null);
        return out;
    }

    private static List<Long> expected() {
        List<Long> out = new ArrayList<>();
        for (long i = 0; i < ROWS; i++) {
            out.add(i);
        }
        return out;
    }

    private static int liveFiles(FileStoreTable table) throws Exception {
        int n = 0;
        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            n += split.files().size();
        }
        return n;
    }

    /** Data files the job's APPEND snapshots added. */
    private static int filesWritten(FileStoreTable table) throws Exception {
        int n = 0;
        for (Snapshot s : SinkTables.snapshots(table)) {
            if (s.commitKind() == CommitKind.APPEND) {
                for (ManifestEntry e : table.snapshotEntries().deltaEntries(s,
                        dev.streamhouse.storage.operation.ManifestFilter.ALL)) {
                    n += e.kind() == FileKind.ADD ? 1 : 0;
                }
            }
        }
        return n;
    }

    /**
     * With {@code commit.force-compact} every checkpoint waits for the compaction it starts, so after
     * every commit no bucket holds {@code compaction.min.file-num} files.
     */
    @Test
    @Timeout(180)
    void fixedBucketWritersCompactTheirBucketsAndKeepTheirRowOrder() throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"), "bucket", "2", "bucket-key", "id",
                "compaction.min.file-num", "3", "commit.force-compact", "true");
        run(table, 2);

        assertThat(allValues(table)).isEqualTo(expected());
        valuesByBucket(table).forEach((bucket, values) -> {
            List<Long> sorted = new ArrayList<>(values);
            sorted.sort(null);
            assertThat(values).as("rows of bucket %s in write order", bucket).isEqualTo(sorted);
        });
        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            assertThat(split.files()).as("files of %s/%s", split.partition(), split.bucket()).hasSizeLessThan(3);
        }
        assertThat(compactSnapshots(table)).isPositive();
        assertThat(liveFiles(table)).isLessThan(filesWritten(table));
    }

    @Test
    @Timeout(180)
    void aTableWithoutBucketsIsCompactedByTheJobsCoordinatorAndWorkers() throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"), "compaction.min.file-num", "3",
                "continuous.discovery-interval", "100 ms");
        run(table, 2);

        assertThat(allValues(table)).isEqualTo(expected());
        assertThat(compactSnapshots(table)).isPositive();
        assertThat(liveFiles(table)).isLessThan(filesWritten(table));
    }

    /** Paimon compacts tables without buckets only in streaming jobs, and never with {@code write-only}. */
    @Test
    void batchJobsAndWriteOnlyTablesGetNoCoordinator() throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"));
        StreamExecutionEnvironment streaming = Jobs.streaming(2, 100L);
        DataStream<RowData> input = streaming.fromData(TYPE_INFO, flinkRow(1, 1L, "a"));
        PaimonSinkBuilder.forTable(table).build().addTo(input);
        assertThat(streaming.getStreamGraph().getStreamNodes()).anyMatch(n -> n.getOperatorName().startsWith(
                "Compact coordinator"));

        StreamExecutionEnvironment batch = Jobs.batch(2);
        PaimonSinkBuilder.forTable(table).build().addTo(batch.fromData(TYPE_INFO, flinkRow(1, 1L, "a")));
        assertThat(batch.getStreamGraph().getStreamNodes()).noneMatch(n -> n.getOperatorName().startsWith(
                "Compact coordinator"));

        StreamExecutionEnvironment writeOnly = Jobs.streaming(2, 100L);
        PaimonSinkBuilder.forTable(table.copy(Map.of("write-only", "true"))).build()
                .addTo(writeOnly.fromData(TYPE_INFO, flinkRow(1, 1L, "a")));
        assertThat(writeOnly.getStreamGraph().getStreamNodes()).noneMatch(n -> n.getOperatorName().startsWith(
                "Compact coordinator"));
        assertThat(batch.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)).isEqualTo(RuntimeExecutionMode.BATCH);
    }
}
