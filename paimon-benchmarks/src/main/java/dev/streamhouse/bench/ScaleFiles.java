package dev.streamhouse.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Workload {@code scale-files}: what planning costs as a table's files grow. Each implementation,
 * through its own Java API without Flink ({@link FileCountStore}), creates a primary-key table of
 * {@code --files} / 100 partitions, one bucket each, with {@code write-only} (no compaction, so every
 * file stays), and commits one row into every partition per commit: one file per partition per
 * commit, until the table has {@code --files} / 100, {@code --files} / 10 and {@code --files} files.
 * At each size it times, after one untimed plan of each kind, {@link #FULL_PLANS} plans of a full
 * scan, and {@link #SELECTIVE_PLANS} plans of one partition ({@code p = 7}) and of one key ({@code p =
 * 7 AND id = 1}), medians in ms, and the most heap a full plan used (heap in use sampled every
 * {@link #SAMPLE_MILLIS} ms above what was in use after a collection before it; a coarse figure).
 * Every plan must select the files it should: all files, the partition's, and of the partition's at
 * least the file that holds the key (a store may skip the others by their key ranges).
 *
 * <p>The goal: the one-partition and the point plans cost the same whatever the other partitions
 * hold ({@code partition-plan-growth} and {@code key-plan-growth}, from the smallest to the largest
 * size, near 1); the full plan at worst linear in the files ({@code full-plan-growth} at most 100).
 */
final class ScaleFiles {
    static final int FULL_PLANS = 3;
    static final int SELECTIVE_PLANS = 10;
    static final int SAMPLE_MILLIS = 5;
    private static final int QUERIED_PARTITION = 7;

    private final String impl;
    private final BenchParams params;

    ScaleFiles(String impl, BenchParams params) {
        this.impl = impl;
        this.params = params;
    }

    void run(Report report, String warehouseUri) throws Exception {
        int partitions = Math.toIntExact(params.scaleFiles / 100);
        int[] commitsAt = {1, 10, 100};
        Map<String, String> options = new LinkedHashMap<>();
        options.put("bucket", "1");
        options.put("write-only", "true");
        double[][] medians = new double[commitsAt.length][];
        try (FileCountStore store = StoreApis.create(FileCountStore.class, impl, "scale-files")) {
            store.open(warehouseUri);
            report.info("store %s; %d partitions; table options %s", store.getClass().getName(), partitions, options);
            warmUp(store, options);
            store.createTable("db", "scale_files", options);
            long commits = 0;
            for (int s = 0; s < commitsAt.length; s++) {
                long building = System.nanoTime();
                while (commits < commitsAt[s]) {
                    commits++;
                    store.writeEveryPartition(partitions, commits, commits);
                }
                double buildSeconds = (System.nanoTime() - building) / 1e9;
                long files = (long) partitions * commits;
                check(store.planAll(), partitions, files, "the full plan");
                check(store.planPartition(QUERIED_PARTITION), 1, commits, "the plan of one partition");
                FileCountStore.Planned keyPlan = store.planKey(QUERIED_PARTITION, 1);
                if (keyPlan.splits() < 1 || keyPlan.files() < 1 || keyPlan.files() > commits) {
                    throw new IllegalStateException("Cannot measure scale-files: the plan of one key selected "
                            + keyPlan + ", expected 1 to " + commits + " files");
                }
                HeapSampler heap = new HeapSampler(SAMPLE_MILLIS);
                double full = heap.during(() -> median(FULL_PLANS, store::planAll));
                double partition = median(SELECTIVE_PLANS, () -> store.planPartition(QUERIED_PARTITION));
                double key = median(SELECTIVE_PLANS, () -> store.planKey(QUERIED_PARTITION, 1));
                medians[s] = new double[] {full, partition, key};
                report.info("%d files (%d commits, built in %.1f s): full plan %.1f ms, one partition %.2f ms,"
                                + " one key %.2f ms (%d files), full plan's heap %.1f MB",
                        files, commits, buildSeconds, full, partition, key, keyPlan.files(), heap.peakAboveBaseMb());
                report.result("full-plan-ms-at-" + files, full, "ms");
                report.result("partition-plan-ms-at-" + files, partition, "ms");
                report.result("key-plan-ms-at-" + files, key, "ms");
                report.result("full-plan-heap-mb-at-" + files, heap.peakAboveBaseMb(), "MB");
            }
        }
        int last = commitsAt.length - 1;
        report.result("full-plan-growth", medians[last][0] / medians[0][0], "ratio");
        report.result("partition-plan-growth", medians[last][1] / medians[0][1], "ratio");
        report.result("key-plan-growth", medians[last][2] / medians[0][2], "ratio");
    }

    /** Commits and plans on a small table of its own, so that the smallest size is not measured cold. */
    private static void warmUp(FileCountStore store, Map<String, String> options) throws Exception {
        store.createTable("db", "scale_files_warm_up", options);
        for (int commit = 1; commit <= 50; commit++) {
            store.writeEveryPartition(20, commit, commit);
            store.planAll();
            store.planPartition(QUERIED_PARTITION);
            store.planKey(QUERIED_PARTITION, 1);
        }
    }

    /** A plan must select {@code files} files in at least {@code buckets} splits (a store may cut a bucket's files into several). */
    private static void check(FileCountStore.Planned planned, int buckets, long files, String what) {
        if (planned.splits() < buckets || planned.files() != files) {
            throw new IllegalStateException("Cannot measure scale-files: " + what + " selected " + planned
                    + ", expected " + files + " files in at least " + buckets + " splits");
        }
    }

    private static double median(int times, Callable<FileCountStore.Planned> plan) throws Exception {
        double[] ms = new double[times];
        for (int i = 0; i < times; i++) {
            long t = System.nanoTime();
            plan.call();
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms);
        return times % 2 == 1 ? ms[times / 2] : (ms[times / 2 - 1] + ms[times / 2]) / 2;
    }
}
