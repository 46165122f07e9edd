package dev.streamhouse.bench;

import org.apache.flink.types.Row;

/**
 * Workloads {@code many-buckets} and {@code many-partitions}: whether a streaming upsert whose writers
 * hold many buckets at once finishes in a small heap, and in how much. Each run is a JVM with
 * {@code -Xmx1g} ({@link Workload#jvmFlags()}) whose MiniCluster runs the job at parallelism 2,
 * checkpointing every {@code --checkpoint-ms}; both stores use their default {@code write-buffer-size}
 * (256 MB per writer task).
 *
 * <ul>
 *   <li>{@code many-buckets}: {@code --rows} rows of {@code --keys} keys into a primary-key table of
 *       256 buckets (128 per writer);
 *   <li>{@code many-partitions}: the same rows into a primary-key table partitioned by {@code p = id %
 *       200}, 4 buckets each: 800 buckets over 200 partitions, created as the rows arrive.
 * </ul>
 *
 * Reports rows per second over the job, the most heap in use during it and the heap in use after a
 * full collection at its end, the data files written, and whether the table then holds one row per
 * distinct key of the input (a run that fails, e.g. out of memory, is reported failed by the runner).
 */
final class ManyWriters {
    static final int BUCKETS = 256;
    static final int PARTITIONS = 200;
    static final int BUCKETS_PER_PARTITION = 4;
    private static final int SAMPLE_MILLIS = 20;

    private final FlinkWorkloads flink;
    private final BenchParams params;

    ManyWriters(FlinkWorkloads flink, BenchParams params) {
        this.flink = flink;
        this.params = params;
    }

    void run(Report report, boolean partitioned) throws Exception {
        String table = partitioned ? "many_partitions" : "many_buckets";
        SqlSession stream = flink.openStreaming(report);
        stream.execute("DROP TABLE IF EXISTS bench.db." + table);
        String columns = FlinkWorkloads.COLUMNS + (partitioned ? ", p INT" : "");
        String key = partitioned ? "id, p" : "id";
        stream.execute("CREATE TABLE bench.db." + table + " (" + columns + ", PRIMARY KEY (" + key + ") NOT ENFORCED)"
                + (partitioned ? " PARTITIONED BY (p)" : "") + " WITH ('bucket' = '"
                + (partitioned ? BUCKETS_PER_PARTITION : BUCKETS) + "', 'sink.parallelism' = '2', 'scan.parallelism' = '2')");
        stream.execute(WriteWorkload.benchRowsDdl("gen", params.rows, params.keys));
        String select = partitioned ? "SELECT *, CAST(id % " + PARTITIONS + " AS INT) AS p FROM gen" : "SELECT * FROM gen";
        report.info("%s: %d rows of %d keys, %s, parallelism 2, max heap %.0f MB", table, params.rows, params.keys,
                partitioned ? PARTITIONS + " partitions of " + BUCKETS_PER_PARTITION + " buckets" : BUCKETS + " buckets",
                Runtime.getRuntime().maxMemory() / (1024.0 * 1024.0));

        HeapSampler heap = new HeapSampler(SAMPLE_MILLIS);
        long start = System.nanoTime();
        heap.during(() -> {
            stream.executeAndWait("INSERT INTO bench.db." + table + " " + select);
            return null;
        });
        double elapsed = FlinkWorkloads.seconds(start);
        double afterGc = heap.afterCollectionMb();
        report.info("wrote %d rows in %.1f s; heap at most %.0f MB, %.0f MB after a full collection",
                params.rows, elapsed, heap.peakMb(), afterGc);
        report.result("rows-per-s", params.rows / elapsed, "rows/s");
        report.result("peak-heap-mb", heap.peakMb(), "MB");
        report.result("heap-after-gc-mb", afterGc, "MB");

        SqlSession sql = flink.openBatch(report);
        sql.execute(WriteWorkload.benchRowsDdl("gen", params.rows, params.keys));
        long distinct = count(sql, "SELECT COUNT(DISTINCT id) FROM gen");
        long rows = count(sql, "SELECT COUNT(*) FROM bench.db." + table);
        long files = count(sql, "SELECT COUNT(*) FROM bench.db.`" + table + "$files`");
        report.info("table holds %d rows (input: %d distinct keys) in %d data files", rows, distinct, files);
        if (rows != distinct) {
            throw new IllegalStateException("Cannot measure " + table + ": the table holds " + rows
                    + " rows but the input has " + distinct + " distinct keys");
        }
        report.result("data-files", files, "files");
    }

    private static long count(SqlSession sql, String query) throws Exception {
        Row row = sql.query(query).get(0);
        return ((Number) row.getField(0)).longValue();
    }
}
