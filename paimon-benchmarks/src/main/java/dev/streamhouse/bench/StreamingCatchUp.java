package dev.streamhouse.bench;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.types.Row;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Workload {@code streaming-catch-up}: a streaming read that starts {@code --snapshots} snapshots
 * behind the table, as a {@code from-snapshot} read or a consumer resuming after downtime does.
 *
 * <p>Not timed: a primary-key table (4 buckets, {@code changelog-producer} = {@code input}, {@code
 * write-only} so that no compaction snapshots come in between) gets {@code --snapshots} commits of
 * {@link #ROWS_PER_SNAPSHOT} new ids each, from one streaming {@code INSERT} whose source releases
 * the next batch only after a checkpoint barrier followed the previous one: one snapshot per
 * checkpoint. The count of snapshots with rows is then read from {@code $snapshots} and must match
 * (Apache Paimon adds an empty snapshot at the end of the input).
 *
 * <p>Timed: {@code SELECT ... FROM t /*+ OPTIONS('scan.mode' = 'from-snapshot', 'scan.snapshot-id' =
 * '1') *&#47;} in streaming mode with the default {@code continuous.discovery-interval}, from the
 * submission of the job until it has seen every id (counted inside the reader job by {@link
 * SeenIds}). Nothing is committed while it reads, so all of the time is catching up.
 */
final class StreamingCatchUp {
    static final int ROWS_PER_SNAPSHOT = 10;
    private static final String TABLE = "catch_up";
    /** Flink's shortest checkpoint interval: the writer is paced by its checkpoints. */
    private static final long WRITER_CHECKPOINT_MILLIS = 10;
    /** The read fails when it sees no new row for this long (the runner's timeout is longer). */
    private static final long STALL_MINUTES = 5;

    private final FlinkWorkloads workloads;
    private final int snapshots;

    StreamingCatchUp(FlinkWorkloads workloads, int snapshots) {
        this.workloads = workloads;
        this.snapshots = snapshots;
    }

    void run(Report report) throws Exception {
        long rows = (long) snapshots * ROWS_PER_SNAPSHOT;
        write(report);

        SqlSession read = workloads.openStreaming(report);
        SeenIds.reset(rows);
        read.createFunction("seen_id", SeenIds.class);
        read.execute("CREATE TEMPORARY TABLE seen (n BIGINT) WITH ('connector' = 'blackhole')");
        long start = System.nanoTime();
        TableResult reader =
                read.execute(
                        "INSERT INTO seen SELECT seen_id(id) FROM bench.db."
                                + TABLE
                                + " /*+ OPTIONS('scan.mode' = 'from-snapshot', 'scan.snapshot-id' = '1') */");
        long lastProgress = System.nanoTime();
        long lastSeen = 0;
        JobStatus status = reader.getJobClient().get().getJobStatus().get();
        while (SeenIds.distinct() < rows && !status.isGloballyTerminalState()) {
            Thread.sleep(20);
            long seen = SeenIds.distinct();
            if (seen != lastSeen) {
                lastSeen = seen;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > TimeUnit.MINUTES.toNanos(STALL_MINUTES)) {
                break;
            }
            status = reader.getJobClient().get().getJobStatus().get();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        reader.getJobClient().get().cancel();
        long seen = SeenIds.distinct();
        if (seen < rows) {
            throw new IllegalStateException(
                    "Cannot measure the catch-up: the streaming read saw "
                            + seen
                            + " of "
                            + rows
                            + " ids (reader "
                            + status
                            + ", no new row for "
                            + STALL_MINUTES
                            + " min or the job ended)");
        }
        report.info(
                "read %d snapshots (%d rows) from snapshot 1 in %.2f s; first row after %.2f s;"
                        + " %d rows seen twice",
                snapshots,
                rows,
                elapsed,
                (SeenIds.firstNanos() - start) / 1e9,
                SeenIds.calls() - seen);
        report.result("catch-up-s", elapsed, "s");
        report.result("snapshots-per-s", snapshots / elapsed, "snapshots/s");
    }

    /** Creates the table anew and commits {@link #snapshots} snapshots into it (not timed). */
    private void write(Report report) throws Exception {
        SqlSession sql = workloads.openStreaming(report, WRITER_CHECKPOINT_MILLIS);
        sql.execute("DROP TABLE IF EXISTS bench.db." + TABLE);
        sql.execute(
                FlinkWorkloads.pkTableDdl(
                        TABLE, "'changelog-producer' = 'input', 'write-only' = 'true', "));
        sql.createTemporaryView("batches", env -> BarrierPacedBatches.stream(env, "batches", snapshots, ROWS_PER_SNAPSHOT));
        long start = System.nanoTime();
        sql.executeAndWait(
                "INSERT INTO bench.db."
                        + TABLE
                        + " SELECT id, i, b, d, s, CAST(ts AS TIMESTAMP(3)) FROM batches");
        List<Row> counts =
                SqlSession.batch(workloads.warehouseUri())
                        .query(
                                "SELECT COUNT(*), SUM(CASE WHEN delta_record_count > 0 THEN 1 ELSE 0 END)"
                                        + " FROM bench.db.`"
                                        + TABLE
                                        + "$snapshots`");
        long all = ((Number) counts.get(0).getField(0)).longValue();
        long withRows = ((Number) counts.get(0).getField(1)).longValue();
        report.info(
                "committed %d snapshots with %d rows each (%d snapshots in all) in %.1f s (not timed)",
                withRows, ROWS_PER_SNAPSHOT, all, (System.nanoTime() - start) / 1e9);
        if (withRows != snapshots) {
            throw new IllegalStateException(
                    "Cannot measure the catch-up over "
                            + snapshots
                            + " snapshots: the writer committed "
                            + withRows
                            + " snapshots with rows");
        }
    }

    /**
     * SQL function {@code seen_id(id)}: called by the reader job on every row, it records the id. The
     * MiniCluster runs in this JVM, so the record is static.
     */
    public static final class SeenIds extends ScalarFunction {
        private static BitSet seen = new BitSet();
        private static long distinct;
        private static long calls;
        private static long firstNanos;

        static synchronized void reset(long ids) {
            seen = new BitSet((int) Math.min(Integer.MAX_VALUE, ids + 1));
            distinct = 0;
            calls = 0;
            firstNanos = 0;
        }

        static synchronized long distinct() {
            return distinct;
        }

        static synchronized long calls() {
            return calls;
        }

        /** When the first row was seen ({@link System#nanoTime()}). */
        static synchronized long firstNanos() {
            return firstNanos;
        }

        public Long eval(Long id) {
            synchronized (SeenIds.class) {
                if (calls++ == 0) {
                    firstNanos = System.nanoTime();
                }
                if (id != null && !seen.get(id.intValue())) {
                    seen.set(id.intValue());
                    distinct++;
                }
            }
            return id;
        }

        @Override
        public boolean isDeterministic() {
            return false;
        }
    }
}
