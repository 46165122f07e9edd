package dev.streamhouse.bench;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;

/**
 * Workload {@code soak}: {@code --soak-minutes} of streaming upserts ({@link #RATE} rows/s over
 * {@link #KEYS} keys, checkpoint every {@code --checkpoint-ms}) into a 4-bucket primary-key table that
 * expires its snapshots ({@link Lifecycle#RETENTION}'s bounds, larger) and compacts as it goes, while
 * a streaming read follows the table and a lookup join probes it ({@link #PROBE_RATE} probes/s), the
 * three jobs in one JVM.
 *
 * <p>Every {@link #SAMPLE_SECONDS} s it samples the table directory (snapshot, manifest and data
 * files), the heap after a full collection, the JVM's open file descriptors and threads. Reported: the
 * largest and last file counts (bounded by the retention, or growing), the heap after collection, open
 * files and threads in the first and the last quarter of the run (a leak grows them), whether the two
 * reading jobs were still running at the end, and whether the final table is exact: the source emits
 * sequence numbers 1..n from one task, a row's key is its number modulo {@link #KEYS} and its value the
 * number, so the table must hold {@link #KEYS} rows whose values are the last {@link #KEYS} numbers.
 */
final class Soak {
    static final long RATE = 10_000;
    static final long KEYS = 200_000;
    static final long PROBE_RATE = 1_000;
    private static final long SAMPLE_SECONDS = 10;
    private static final String TABLE = "soak";

    private final FlinkWorkloads flink;
    private final BenchParams params;
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    Soak(FlinkWorkloads flink, BenchParams params) {
        this.flink = flink;
        this.params = params;
    }

    void run(Report report) throws Exception {
        long rows = RATE * params.soakMinutes * 60;
        if (rows < KEYS) {
            throw new IllegalArgumentException("Cannot soak: " + rows + " rows do not reach all " + KEYS + " keys");
        }
        SqlSession sql = flink.openStreaming(report);
        sql.execute("DROP TABLE IF EXISTS bench.db." + TABLE);
        sql.execute("CREATE TABLE bench.db." + TABLE + " (id BIGINT, b BIGINT, s STRING, PRIMARY KEY (id) NOT ENFORCED)"
                + " WITH ('bucket' = '4', 'changelog-producer' = 'input', 'snapshot.num-retained.min' = '10',"
                + " 'snapshot.num-retained.max' = '30', 'snapshot.time-retained' = '30 s',"
                + " 'sink.parallelism' = '2', 'scan.parallelism' = '2')");
        SequenceRows.register(sql, "gen", rows, RATE);
        sql.execute("CREATE TEMPORARY TABLE probes (k BIGINT, proc AS PROCTIME()) WITH ('connector' = 'datagen',"
                + " 'rows-per-second' = '" + PROBE_RATE + "', 'fields.k.min' = '0', 'fields.k.max' = '" + (KEYS - 1) + "')");
        sql.execute("CREATE TEMPORARY TABLE read_out (id BIGINT, b BIGINT) WITH ('connector' = 'blackhole')");
        sql.execute("CREATE TEMPORARY TABLE joined_out (k BIGINT, b BIGINT) WITH ('connector' = 'blackhole')");
        report.info("%d minutes: %d rows of %d keys at %d rows/s, a streaming read and a lookup join at %d probes/s",
                params.soakMinutes, rows, KEYS, RATE, PROBE_RATE);

        // The writer first, so the readers find the table's first snapshot.
        TableResult writer = sql.execute("INSERT INTO bench.db." + TABLE
                + " SELECT MOD(seq, " + KEYS + ") AS id, seq AS b, s FROM gen");
        CompletableFuture<Void> written = CompletableFuture.runAsync(() -> {
            try {
                writer.await();
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
        Path table = Lifecycle.tableDir(flink, TABLE);
        while (!Files.exists(table.resolve("snapshot").resolve("snapshot-1")) && !written.isDone()) {
            Thread.sleep(100);
        }
        TableResult reader = sql.execute("INSERT INTO read_out SELECT id, b FROM bench.db." + TABLE
                + " /*+ OPTIONS('continuous.discovery-interval' = '1 s') */");
        TableResult join = sql.execute("INSERT INTO joined_out SELECT p.k, d.b FROM probes AS p JOIN bench.db."
                + TABLE + " FOR SYSTEM_TIME AS OF p.proc AS d ON p.k = d.id");

        List<Sample> samples = new ArrayList<>();
        Lifecycle.Counts max = new Lifecycle.Counts(0, 0, 0, 0);
        long start = System.nanoTime();
        while (!written.isDone()) {
            Sample s = sample(table);
            samples.add(s);
            max = max.max(s.counts);
            sleepUntilNextSample(written);
        }
        written.get();
        double elapsed = FlinkWorkloads.seconds(start);
        JobStatus readerStatus = reader.getJobClient().get().getJobStatus().get();
        JobStatus joinStatus = join.getJobClient().get().getJobStatus().get();
        Sample end = sample(table);
        reader.getJobClient().get().cancel().get();
        join.getJobClient().get().cancel().get();
        report.info("the writer ran %.1f s; then the streaming read was %s, the lookup join %s",
                elapsed, readerStatus, joinStatus);
        report.result("readers-running-at-end", readerStatus == JobStatus.RUNNING && joinStatus == JobStatus.RUNNING ? 1 : 0,
                "boolean");
        report.info("at the end: %s; at most: %s", end.counts, max);
        report.result("commits", Lifecycle.latestSnapshotId(table), "snapshots");
        report.result("snapshot-files-max", max.snapshots(), "files");
        report.result("manifest-files-max", max.manifests(), "files");
        report.result("manifest-files-end", end.counts.manifests(), "files");
        report.result("data-files-max", max.dataFiles(), "files");
        report.result("data-files-end", end.counts.dataFiles(), "files");

        List<Sample> first = samples.subList(0, Math.max(1, samples.size() / 4));
        List<Sample> last = samples.subList(samples.size() - Math.max(1, samples.size() / 4), samples.size());
        report.info("every %d s (heap MB after a full collection, open files, threads): %s", SAMPLE_SECONDS, samples);
        report.result("heap-after-gc-first-quarter-mb", median(first, Sample::heapMb), "MB");
        report.result("heap-after-gc-last-quarter-mb", median(last, Sample::heapMb), "MB");
        report.result("open-files-first-quarter", median(first, Sample::openFiles), "count");
        report.result("open-files-last-quarter", median(last, Sample::openFiles), "count");
        report.result("threads-first-quarter", median(first, Sample::threads), "count");
        report.result("threads-last-quarter", median(last, Sample::threads), "count");

        SqlSession batch = SqlSession.batch(flink.warehouseUri());
        Row r = batch.query("SELECT COUNT(*), SUM(b), COUNT(DISTINCT id) FROM bench.db." + TABLE).get(0);
        long count = ((Number) r.getField(0)).longValue();
        long sum = ((Number) r.getField(1)).longValue();
        long expectedSum = (rows - KEYS + 1 + rows) * KEYS / 2; // the last KEYS sequence numbers
        boolean exact = count == KEYS && sum == expectedSum && ((Number) r.getField(2)).longValue() == KEYS;
        report.info("final table: %d rows, SUM(b) = %d; expected %d rows, SUM(b) = %d", count, sum, KEYS, expectedSum);
        report.result("final-table-exact", exact ? 1 : 0, "boolean");
    }

    private void sleepUntilNextSample(CompletableFuture<Void> written) throws InterruptedException {
        long until = System.nanoTime() + SAMPLE_SECONDS * 1_000_000_000L;
        while (!written.isDone() && System.nanoTime() < until) {
            Thread.sleep(200);
        }
    }

    private Sample sample(Path table) {
        System.gc();
        return new Sample(System.nanoTime(), Lifecycle.Counts.of(table),
                memory.getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0), openFiles(), threads.getThreadCount());
    }

    private static long openFiles() {
        try (Stream<Path> fds = Files.list(Paths.get("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            return -1;
        }
    }

    private static double median(List<Sample> samples, java.util.function.ToDoubleFunction<Sample> f) {
        double[] v = samples.stream().mapToDouble(f).sorted().toArray();
        return v[v.length / 2];
    }

    private record Sample(long nanos, Lifecycle.Counts counts, double heapMb, long openFiles, int threads) {
        @Override
        public String toString() {
            return String.format("(%.0f, %d, %d)", heapMb, openFiles, threads);
        }
    }
}
