package dev.streamhouse.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Workload {@code scale-snapshots}: what a commit and a plan cost as a table's history grows. Each
 * implementation, through its own Java API without Flink ({@link SnapshotStore}), creates a one-bucket
 * primary-key table that retains every snapshot, and commits small batches ({@link #ROWS_PER_COMMIT}
 * upserts over {@link #KEYS} ids, one commit user, as a streaming job does) until the table has 10,
 * then a tenth of {@code --retained-snapshots}, then {@code --retained-snapshots} snapshots (compaction
 * snapshots count). Once the table has that many snapshots it times {@link #TIMED_COMMITS} more
 * commits (the commit call only; writing the data file is not timed), then {@link #TIMED_PLANS} batch
 * plans of the latest snapshot and as many streaming plans restored to it, after one untimed plan of
 * each. Before all that, {@link #WARM_UP_COMMITS} commits and plans on a table of their own warm the
 * JVM up (not reported), so that the smallest size is not measured in a cold JVM.
 *
 * <p>Reported per size (medians, ms): {@code commit-ms-at-N}, {@code batch-plan-ms-at-N}, {@code
 * stream-plan-ms-at-N}; and the growth from the smallest to the largest size ({@code *-growth}, ratio;
 * the goal is at most 1.5). At the end the table must hold exactly the rows written (count and sum).
 */
final class ScaleSnapshots {
    static final int ROWS_PER_COMMIT = 10;
    static final int KEYS = 10_000;
    static final int TIMED_COMMITS = 30;
    static final int TIMED_PLANS = 15;
    static final int WARM_UP_COMMITS = 300;
    private static final int FIRST_SIZE = 10;

    private final String impl;
    private final BenchParams params;
    /** The value each id last got (its commit's identifier), -1 when never written. */
    private final long[] lastValue = new long[KEYS];
    private long identifier;
    private long nextId;

    ScaleSnapshots(String impl, BenchParams params) {
        this.impl = impl;
        this.params = params;
        Arrays.fill(lastValue, -1);
    }

    void run(Report report, String warehouseUri) throws Exception {
        int largest = params.retainedSnapshots;
        List<Integer> sizes = new ArrayList<>(new TreeSet<>(List.of(FIRST_SIZE, largest / 10, largest)));
        Map<String, String> options = new LinkedHashMap<>();
        options.put("bucket", "1");
        options.put("snapshot.num-retained.min", Integer.toString(largest * 2 + 1_000));
        options.put("snapshot.num-retained.max", Integer.toString(largest * 2 + 1_000));
        options.put("snapshot.time-retained", "3650 d");
        double[] commit = new double[sizes.size()];
        double[] batchPlan = new double[sizes.size()];
        double[] streamPlan = new double[sizes.size()];
        try (SnapshotStore store = StoreApis.create(SnapshotStore.class, impl, "scale-snapshots")) {
            store.open(warehouseUri);
            report.info("store %s; table options %s", store.getClass().getName(), options);
            warmUp(store, options);
            report.info("warm-up: %d commits and plans on table scale_snapshots_warm_up", WARM_UP_COMMITS);
            store.createTable("db", "scale_snapshots", options);
            Arrays.fill(lastValue, -1);
            nextId = 0;
            long firstIdentifier = identifier;
            long started = System.nanoTime();
            for (int s = 0; s < sizes.size(); s++) {
                int size = sizes.get(s);
                long building = System.nanoTime();
                long untimed = 0;
                while (store.latestSnapshotId() < size) {
                    writeAndPrepare(store);
                    store.commit(identifier);
                    untimed++;
                }
                double buildSeconds = (System.nanoTime() - building) / 1e9;
                double[] commits = new double[TIMED_COMMITS];
                for (int i = 0; i < TIMED_COMMITS; i++) {
                    writeAndPrepare(store);
                    long t = System.nanoTime();
                    store.commit(identifier);
                    commits[i] = (System.nanoTime() - t) / 1e6;
                }
                long snapshots = store.latestSnapshotId();
                int batchSplits = store.planBatch();
                int streamSplits = store.planStreaming();
                double[] batch = new double[TIMED_PLANS];
                double[] stream = new double[TIMED_PLANS];
                for (int i = 0; i < TIMED_PLANS; i++) {
                    long t = System.nanoTime();
                    store.planBatch();
                    batch[i] = (System.nanoTime() - t) / 1e6;
                    t = System.nanoTime();
                    store.planStreaming();
                    stream[i] = (System.nanoTime() - t) / 1e6;
                }
                commit[s] = median(commits);
                batchPlan[s] = median(batch);
                streamPlan[s] = median(stream);
                report.info("%d snapshots (%d untimed commits in %.1f s before): commit %.2f ms (max %.2f),"
                                + " batch plan %.2f ms (%d splits), streaming plan %.2f ms (%d splits)",
                        snapshots, untimed, buildSeconds, commit[s], Arrays.stream(commits).max().orElse(0),
                        batchPlan[s], batchSplits, streamPlan[s], streamSplits);
                report.result("commit-ms-at-" + size, commit[s], "ms");
                report.result("batch-plan-ms-at-" + size, batchPlan[s], "ms");
                report.result("stream-plan-ms-at-" + size, streamPlan[s], "ms");
            }
            report.info("%d commits in %.1f s", identifier - firstIdentifier, (System.nanoTime() - started) / 1e9);
            checkRows(store);
        }
        int last = sizes.size() - 1;
        report.result("commit-growth", commit[last] / commit[0], "ratio");
        report.result("batch-plan-growth", batchPlan[last] / batchPlan[0], "ratio");
        report.result("stream-plan-growth", streamPlan[last] / streamPlan[0], "ratio");
    }

    private void warmUp(SnapshotStore store, Map<String, String> options) throws Exception {
        store.createTable("db", "scale_snapshots_warm_up", options);
        for (int i = 0; i < WARM_UP_COMMITS; i++) {
            writeAndPrepare(store);
            store.commit(identifier);
            if (i % 10 == 0) {
                store.planBatch();
                store.planStreaming();
            }
        }
        checkRows(store);
    }

    /** Writes the next {@link #ROWS_PER_COMMIT} ids (cycling over {@link #KEYS}) for the next commit. */
    private void writeAndPrepare(SnapshotStore store) throws Exception {
        identifier++;
        store.write(nextId, ROWS_PER_COMMIT, identifier, identifier);
        for (long id = nextId; id < nextId + ROWS_PER_COMMIT; id++) {
            lastValue[(int) id] = identifier;
        }
        nextId = (nextId + ROWS_PER_COMMIT) % KEYS;
    }

    private void checkRows(SnapshotStore store) throws Exception {
        long rows = 0;
        long sum = 0;
        for (long v : lastValue) {
            if (v >= 0) {
                rows++;
                sum += v;
            }
        }
        long[] read = store.countAndSum();
        if (read[0] != rows || read[1] != sum) {
            throw new IllegalStateException("Cannot measure scale-snapshots: the table holds " + read[0]
                    + " rows summing to " + read[1] + ", but " + rows + " rows summing to " + sum + " were written");
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
