package dev.streamhouse.bench;

import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.ScalarFunction;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Workloads {@code lookup-join} and {@code lookup-join-misses}: a processing-time lookup join of a
 * bounded datagen stream of probes against the primary-key table {@link
 * FlinkWorkloads#preparedDimTable()} ({@code id BIGINT, name STRING, v BIGINT}, ids 0 to {@code
 * --dim-rows} - 1, 4 buckets, written once per implementation beforehand), in streaming mode, into
 * a blackhole sink:
 *
 * <pre>
 * INSERT INTO joined_rows SELECT p.k, d.name, joined(d.v)
 * FROM probes AS p JOIN bench.db.dim_N FOR SYSTEM_TIME AS OF p.proc AS d ON p.k = d.id
 * </pre>
 *
 * Probe keys are uniform over the dimension's ids ({@code lookup-join}: every probe finds its row)
 * or over a range ten times as large ({@code lookup-join-misses}: 90 % of probes find nothing); the
 * same inner join in both, so the two rates compare. {@code lookup-join-full} is {@code lookup-join}
 * with the hint {@code /*+ OPTIONS('lookup.cache' = 'full') *}{@code /} on the dimension: both
 * implementations keep their copy of the dimension in RocksDB on local disk (Paimon's default,
 * {@code auto}, reads its own local copies of the table's files; ours keeps the copy on the heap
 * while it fits).
 *
 * <p>Timed: three jobs in one JVM, each from submission to its end: a {@link
 * BenchParams#SMALL_PROBES}-probe job first (JVM, planner and code generation warm-up; not counted),
 * the same small job again (its time is job start plus the lookup cache's bootstrap: {@code
 * bootstrap-s}), then {@code --probes} probes. {@code probes-per-s} = (probes - small probes) /
 * (full time - small time), so job start and bootstrap are left out.
 *
 * <p>During the full job a thread samples, every {@link #SAMPLE_MILLIS} ms, the used heap ({@link
 * MemoryMXBean}) and the size of the JVM's temporary directory tree ({@code java.io.tmpdir}, which
 * {@link BenchRunner} makes a fresh directory per run and which this workload also sets as Flink's
 * {@code io.tmp.dirs} and job parameter {@code io.tmp.dirs}: where both implementations keep their
 * lookup caches). {@code peak-heap-mb} is the largest used heap seen; {@code peak-tmp-dir-mb} the
 * largest size of the tree's top-level directories, which holds the full job's caches (built from
 * nothing, as the job starts) and leaves out the regular files at the top, Flink's: the jars it
 * extracts there (about 60 MiB, one of them anew for every job's MiniCluster) and native libraries.
 * The INFO lines give the tree's total and its largest entries, before the full job (caches an
 * implementation left behind show there) and at the peak. Both in MiB (2^20 bytes), like the
 * runner's peak RSS.
 */
final class LookupJoin {
    /** The misses workload draws keys from this many times the dimension's key range. */
    private static final long MISS_RANGE_FACTOR = 10;
    private static final long SAMPLE_MILLIS = 100;
    private static final double MIB = 1024.0 * 1024.0;

    private final FlinkWorkloads workloads;
    private final BenchParams params;
    private final boolean misses;
    private final boolean fullCache;

    LookupJoin(FlinkWorkloads workloads, BenchParams params, boolean misses, boolean fullCache) {
        this.workloads = workloads;
        this.params = params;
        this.misses = misses;
        this.fullCache = fullCache;
    }

    void run(Report report) throws Exception {
        Path tmpDir = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        Files.createDirectories(tmpDir);
        SqlSession sql = workloads.openStreamingWithTmpDir(report, tmpDir.toString());
        String dim = workloads.preparedDimTable();
        if (!sql.tableExists(dim)) {
            throw new IllegalStateException(
                    "Cannot run the lookup join: table "
                            + dim
                            + " is missing (bin/bench writes it first, in prepare-dim)");
        }
        long keyRange = misses ? params.dimRows * MISS_RANGE_FACTOR : params.dimRows;
        double expectedHits = (double) params.dimRows / keyRange;
        report.info(
                "dimension %s: ids [0, %d); probe keys uniform in [0, %d) (expected hit fraction %.2f);"
                        + " lookup.cache %s; temporary directory %s",
                dim, params.dimRows, keyRange, expectedHits, fullCache ? "full" : "default", tmpDir);
        sql.createFunction("joined", JoinedRows.class);
        sql.execute(
                "CREATE TEMPORARY TABLE joined_rows (k BIGINT, name STRING, v BIGINT)"
                        + " WITH ('connector' = 'blackhole')");

        Job cold = probe(sql, dim, BenchParams.SMALL_PROBES, keyRange);
        report.info("first job (warm-up, not counted): %s", cold);
        String jobTmpDirs = JoinedRows.tmpDirsParameter();
        report.info("the jobs' parameter io.tmp.dirs: %s", jobTmpDirs == null ? "not set" : jobTmpDirs);
        Job small = probe(sql, dim, BenchParams.SMALL_PROBES, keyRange);
        report.info("small job: %s", small);

        Sampler sampler = new Sampler(tmpDir);
        report.info(
                "temporary directory before the full job: %.1f MiB, %.1f MiB of it in directories (%s)",
                Sampler.total(sampler.before, false) / MIB,
                Sampler.total(sampler.before, true) / MIB,
                Sampler.describe(sampler.before));
        sampler.start();
        Job full;
        try {
            full = probe(sql, dim, params.probes, keyRange);
        } finally {
            sampler.stop();
        }
        report.info("full job: %s", full);
        report.info(
                "peaks during the full job: heap used %.1f MiB; temporary directory %.1f MiB in all,"
                        + " %.1f MiB in directories (at that peak: %s)",
                sampler.peakHeap / MIB,
                sampler.peakTotal / MIB,
                sampler.peakDirectories / MIB,
                Sampler.describe(sampler.atPeak));

        for (Job job : List.of(cold, small, full)) {
            checkHits(job, expectedHits);
        }
        if (full.seconds <= small.seconds) {
            throw new IllegalStateException(
                    "Cannot measure the probe rate: the full job ("
                            + full
                            + ") took no longer than the small one ("
                            + small
                            + "); use more --probes");
        }
        report.result(
                "probes-per-s",
                (full.probes - small.probes) / (full.seconds - small.seconds),
                "probes/s");
        report.result("bootstrap-s", small.seconds, "s");
        report.result("hit-fraction", (double) full.joined / full.probes, "ratio");
        report.result("peak-tmp-dir-mb", sampler.peakDirectories / MIB, "MB");
        report.result("peak-heap-mb", sampler.peakHeap / MIB, "MB");
    }

    /** One job: {@code probes} probes with keys uniform in [0, keyRange), timed from submission. */
    private Job probe(SqlSession sql, String dim, long probes, long keyRange) throws Exception {
        sql.execute("DROP TEMPORARY TABLE IF EXISTS probes");
        sql.execute(
                "CREATE TEMPORARY TABLE probes (k BIGINT, proc AS PROCTIME()) WITH ("
                        + "'connector' = 'datagen', 'number-of-rows' = '"
                        + probes
                        + "', 'rows-per-second' = '"
                        + FlinkWorkloads.UNTHROTTLED
                        + "', 'fields.k.min' = '0', 'fields.k.max' = '"
                        + (keyRange - 1)
                        + "')");
        JoinedRows.reset();
        long start = System.nanoTime();
        sql.executeAndWait(
                "INSERT INTO joined_rows SELECT p.k, d.name, joined(d.v) FROM probes AS p"
                        + " JOIN bench.db."
                        + dim
                        + (fullCache ? " /*+ OPTIONS('lookup.cache' = 'full') */" : "")
                        + " FOR SYSTEM_TIME AS OF p.proc AS d ON p.k = d.id");
        return new Job(probes, (System.nanoTime() - start) / 1e9, JoinedRows.count());
    }

    /**
     * Every probe of {@code lookup-join} must find its row; {@code lookup-join-misses} must find
     * about one in ten (the small jobs' 1,000 probes are too few to check that).
     */
    private static void checkHits(Job job, double expectedHits) {
        boolean ok;
        if (expectedHits == 1.0) {
            ok = job.joined == job.probes;
        } else {
            ok = job.probes < 100_000 || Math.abs((double) job.joined / job.probes - expectedHits) < 0.01;
        }
        if (!ok) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot measure the lookup join: %d probes joined %d rows, expected"
                                    + " about %.0f",
                            job.probes, job.joined, job.probes * expectedHits));
        }
    }

    private static final class Job {
        final long probes;
        final double seconds;
        final long joined;

        Job(long probes, double seconds, long joined) {
            this.probes = probes;
            this.seconds = seconds;
            this.joined = joined;
        }

        @Override
        public String toString() {
            return String.format("%d probes, %d joined rows, %.2f s", probes, joined, seconds);
        }
    }

    /**
     * Samples the used heap and the size of a directory tree in a thread of its own, keeping the
     * largest values seen. The tree's top-level regular files are Flink's (the planner and RPC jars
     * it extracts, about 60 MiB, and native libraries), so besides the total the sampler keeps the
     * size of the top-level directories: the lookup caches' and Flink's working directories.
     */
    private static final class Sampler {
        private final Path dir;
        private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        private final Thread thread;
        private volatile boolean stopped;
        /** Top-level entries when the sampler was made; directories' names end in '/'. */
        final Map<String, Long> before;
        volatile long peakHeap;
        volatile long peakTotal;
        volatile long peakDirectories;
        volatile Map<String, Long> atPeak = Map.of();

        Sampler(Path dir) {
            this.dir = dir;
            this.before = topLevelSizes();
            this.thread = new Thread(this::loop, "bench-sampler");
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            stopped = true;
            thread.join();
            sample();
        }

        private void loop() {
            while (!stopped) {
                sample();
                try {
                    Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private void sample() {
            peakHeap = Math.max(peakHeap, memory.getHeapMemoryUsage().getUsed());
            Map<String, Long> sizes = topLevelSizes();
            peakTotal = Math.max(peakTotal, total(sizes, false));
            long directories = total(sizes, true);
            if (directories > peakDirectories || atPeak.isEmpty()) {
                peakDirectories = directories;
                atPeak = sizes;
            }
        }

        /** Bytes of all entries, or of the directories only. */
        static long total(Map<String, Long> sizes, boolean directoriesOnly) {
            return sizes.entrySet().stream()
                    .filter(e -> !directoriesOnly || e.getKey().endsWith("/"))
                    .mapToLong(Map.Entry::getValue)
                    .sum();
        }

        /** The largest entries, e.g. {@code lookup-1f2e.../: 52.1 MiB}. */
        static String describe(Map<String, Long> sizes) {
            List<String> parts =
                    sizes.entrySet().stream()
                            .filter(e -> e.getValue() >= 64 * 1024)
                            .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                            .limit(8)
                            .map(e -> String.format("%s: %.1f MiB", e.getKey(), e.getValue() / MIB))
                            .collect(Collectors.toCollection(ArrayList::new));
            return parts.isEmpty() ? "no entry of 64 KiB or more" : String.join(", ", parts);
        }

        /** Bytes of the regular files under each entry of {@link #dir}; entries vanish meanwhile. */
        private Map<String, Long> topLevelSizes() {
            Map<String, Long> sizes = new LinkedHashMap<>();
            List<Path> children;
            try (Stream<Path> list = Files.list(dir)) {
                children = list.collect(Collectors.toList());
            } catch (IOException e) {
                return sizes;
            }
            for (Path child : children) {
                String name = child.getFileName().toString();
                sizes.put(Files.isDirectory(child) ? name + "/" : name, treeBytes(child));
            }
            return sizes;
        }

        private static long treeBytes(Path root) {
            long[] bytes = {0};
            try {
                Files.walkFileTree(
                        root,
                        new SimpleFileVisitor<>() {
                            @Override
                            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                                if (attrs.isRegularFile()) {
                                    bytes[0] += attrs.size();
                                }
                                return FileVisitResult.CONTINUE;
                            }

                            @Override
                            public FileVisitResult visitFileFailed(Path file, IOException e) {
                                return FileVisitResult.CONTINUE;
                            }
                        });
            } catch (IOException e) {
                // Deleted while walking: count what was seen.
            }
            return bytes[0];
        }
    }

    /**
     * SQL function {@code joined(v)}: called once per joined row, it counts them, and records the
     * job parameter {@code io.tmp.dirs} its tasks see (where lookup functions look for a directory).
     * The MiniCluster runs in this JVM, so the records are static.
     */
    public static final class JoinedRows extends ScalarFunction {
        private static final LongAdder COUNT = new LongAdder();
        private static volatile String tmpDirsParameter;

        static void reset() {
            COUNT.reset();
        }

        static long count() {
            return COUNT.sum();
        }

        static String tmpDirsParameter() {
            return tmpDirsParameter;
        }

        @Override
        public void open(FunctionContext context) throws Exception {
            super.open(context);
            tmpDirsParameter = context.getJobParameter("io.tmp.dirs", null);
        }

        public Long eval(Long v) {
            COUNT.increment();
            return v;
        }

        @Override
        public boolean isDeterministic() {
            return false;
        }
    }
}
