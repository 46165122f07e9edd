package dev.streamhouse.bench;

import org.apache.flink.types.Row;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Workloads {@code pk-upsert-write} and {@code append-write}: a batch {@code INSERT} of {@code --rows}
 * {@code bench-rows} rows, timed as a whole job, then the files and sorted runs the write left (a faster
 * write must not be one that compacts less).
 */
final class WriteWorkload {
    private final FlinkWorkloads flink;
    private final BenchParams params;

    WriteWorkload(FlinkWorkloads flink, BenchParams params) {
        this.flink = flink;
        this.params = params;
    }

    void run(Report report, String table, boolean primaryKey) throws Exception {
        SqlSession sql = flink.openBatch(report);
        sql.execute("DROP TABLE IF EXISTS bench.db." + table);
        sql.execute(primaryKey ? FlinkWorkloads.pkTableDdl(table) : FlinkWorkloads.appendTableDdl(table));
        sql.execute(benchRowsDdl("gen", params.rows, params.keys));
        long start = System.nanoTime();
        sql.executeAndWait("INSERT INTO bench.db." + table + " SELECT * FROM gen");
        double elapsed = FlinkWorkloads.seconds(start);
        report.info("wrote %d rows in %.2f s", params.rows, elapsed);
        report.result("rows-per-s", params.rows / elapsed, "rows/s");
        List<Row> check = sql.query("SELECT COUNT(*) FROM bench.db." + table);
        report.info("table holds %s rows", check.get(0).getField(0));
        filesAndSortedRuns(sql, report, table);
    }

    /**
     * The timed writes' input: {@code rows} rows of {@link dev.streamhouse.bench.rows.BenchRows}, ids
     * uniform in [1, keys], unthrottled; the same rows for both implementations, and cheap to make, so
     * the write workloads measure the store rather than Flink's datagen.
     */
    static String benchRowsDdl(String name, long rows, long keys) {
        return "CREATE TEMPORARY TABLE " + name + " (" + FlinkWorkloads.COLUMNS + ") WITH ('connector' = '"
                + dev.streamhouse.bench.rows.BenchRowsFactory.IDENTIFIER + "', 'number-of-rows' = '" + rows
                + "', 'keys' = '" + keys + "')";
    }

    /** Data files, and per bucket its sorted runs (each level-0 file is one, each non-empty higher level one). */
    private static void filesAndSortedRuns(SqlSession sql, Report report, String table) throws Exception {
        Map<Integer, Long> runs = new TreeMap<>();
        long files = 0;
        for (Row row : sql.query("SELECT `bucket`, `level`, COUNT(*) FROM bench.db.`" + table
                + "$files` GROUP BY `bucket`, `level`")) {
            int bucket = ((Number) row.getField(0)).intValue();
            int level = ((Number) row.getField(1)).intValue();
            long count = ((Number) row.getField(2)).longValue();
            files += count;
            runs.merge(bucket, level == 0 ? count : 1, Long::sum);
        }
        report.info("files %d; sorted runs per bucket %s", files, runs);
        report.result("files", files, "files");
        report.result("max-sorted-runs-per-bucket",
                runs.values().stream().mapToLong(Long::longValue).max().orElse(0), "runs");
    }
}
