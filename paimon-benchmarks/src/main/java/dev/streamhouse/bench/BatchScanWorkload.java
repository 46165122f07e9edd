package dev.streamhouse.bench;

import org.apache.flink.types.Row;

/**
 * Workloads {@code pk-batch-scan} and {@code append-batch-scan}: {@code SELECT COUNT(*), SUM(b), SUM(d)}
 * over a prepared table, first with Flink's aggregate push-down off (every row through Flink's
 * aggregation), then on, as users run it.
 */
final class BatchScanWorkload {
    private final FlinkWorkloads flink;

    BatchScanWorkload(FlinkWorkloads flink) {
        this.flink = flink;
    }

    void run(Report report, String table, String what) throws Exception {
        SqlSession sql = flink.openBatch(report);
        String query = "SELECT COUNT(*), SUM(b), SUM(d) FROM bench.db." + table;
        // The rows through Flink's aggregation: aggregate push-down off (measured below separately).
        sql.set(AGGREGATE_PUSH_DOWN, "false");
        // Cold: the first query of a fresh JVM (Flink, the planner and the reader not yet warm; the
        // OS page cache may hold the files). Warm: the same query again, best of two. The job time of
        // the warm runs leaves out what every query pays before its job runs (planning, MiniCluster
        // start), which at these sizes is most of the wall time.
        long start = System.nanoTime();
        long rows = (Long) sql.query(query).get(0).getField(0);
        double cold = FlinkWorkloads.seconds(start);
        double warm = Double.MAX_VALUE;
        long warmJobMillis = Long.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            start = System.nanoTime();
            SqlSession.Timed run = sql.timedQuery(query);
            warm = Math.min(warm, FlinkWorkloads.seconds(start));
            warmJobMillis = Math.min(warmJobMillis, run.jobMillis);
        }
        report.info("%d %s; cold %.2f s, warm %.2f s (job %.2f s)", rows, what, cold, warm, warmJobMillis / 1e3);
        report.result("cold-rows-per-s", rows / cold, "rows/s");
        report.result("warm-rows-per-s", rows / warm, "rows/s");
        if (warmJobMillis > 0 && warmJobMillis != Long.MAX_VALUE) {
            report.result("warm-job-rows-per-s", rows / (warmJobMillis / 1e3), "rows/s");
        }

        // The same query with aggregate push-down on, as users run it: a store that computes the
        // aggregates in its source emits a row per split (Apache Paimon 1.3 pushes only COUNT(*)).
        sql.set(AGGREGATE_PUSH_DOWN, "true");
        boolean pushed = sql.explain(query).contains("aggregates=[");
        Row expected = sql.query(query).get(0);
        double pushedWarm = Double.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            start = System.nanoTime();
            Row got = sql.query(query).get(0);
            pushedWarm = Math.min(pushedWarm, FlinkWorkloads.seconds(start));
            if (!got.getField(0).equals(expected.getField(0)) || !got.getField(1).equals(expected.getField(1))) {
                throw new IllegalStateException("Cannot measure " + table + ": the query read " + got + " and "
                        + expected);
            }
        }
        if ((Long) expected.getField(0) != rows) {
            throw new IllegalStateException("Cannot measure " + table + ": COUNT(*) is " + expected.getField(0)
                    + " with aggregate push-down and " + rows + " without");
        }
        report.info("with aggregate push-down on: aggregates %s into the source, warm %.2f s",
                pushed ? "pushed" : "not pushed", pushedWarm);
        report.result("pushdown-warm-rows-per-s", rows / pushedWarm, "rows/s");
    }

    /** Flink's switch for aggregate push-down into sources (default on). */
    private static final String AGGREGATE_PUSH_DOWN = "table.optimizer.source.aggregate-pushdown-enabled";
}
