package dev.streamhouse.bench;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;

import java.util.Arrays;
import java.util.List;

/**
 * The Flink SQL workloads. Every statement is the same text for both implementations; only the
 * classpath differs. Times are wall-clock times of whole jobs as a user sees them (submission,
 * MiniCluster start and the job), so they include Flink's fixed cost of about 1-3 s per job.
 */
final class FlinkWorkloads {
    /** Columns of every benchmark table: the row shape. */
    static final String COLUMNS =
            "id BIGINT, i INT, b BIGINT, d DOUBLE, s STRING, ts TIMESTAMP(3)";
    /** Options of every benchmark table: the job parallelism, set explicitly for both. */
    private static final String PARALLELISM_OPTIONS =
            "'sink.parallelism' = '2', 'scan.parallelism' = '2'";
    /** Columns of the lookup joins' dimension table. */
    private static final String DIM_COLUMNS = "id BIGINT, name STRING, v BIGINT";
    /** Effectively unthrottled: datagen's default is 10,000 rows/s. */
    static final long UNTHROTTLED = 1_000_000_000L;

    private final String impl;
    private final String warehouseUri;
    private final BenchParams params;

    FlinkWorkloads(String impl, String warehouseUri, BenchParams params) {
        this.impl = impl;
        this.warehouseUri = warehouseUri;
        this.params = params;
    }

    /** The implementation measured: ours, paimon. */
    String impl() {
        return impl;
    }

    /** The name of the primary-key table the scan workloads read, per size. */
    String preparedTable() {
        return "pk_" + params.rows + "_" + params.keys;
    }

    void run(Workload workload) throws Exception {
        Report report = new Report(workload.id, impl);
        switch (workload) {
            case PK_UPSERT_WRITE:
                new WriteWorkload(this, params).run(report, "pk_write", true);
                break;
            case APPEND_WRITE:
                new WriteWorkload(this, params).run(report, "append_write", false);
                break;
            case MANY_BUCKETS:
                new ManyWriters(this, params).run(report, false);
                break;
            case MANY_PARTITIONS:
                new ManyWriters(this, params).run(report, true);
                break;
            case PK_BATCH_SCAN:
                new BatchScanWorkload(this).run(report, preparedTable(), "merged rows");
                break;
            case PK_BATCH_SCAN_DV:
                new DvBatchScan(this, params).run(report);
                break;
            case APPEND_BATCH_SCAN:
                new BatchScanWorkload(this).run(report, preparedAppendTable(), "rows");
                break;
            case PK_COPY:
                copy(report, preparedTable());
                break;
            case APPEND_COPY:
                copy(report, preparedAppendTable());
                break;
            case PK_POINT_QUERY:
                pointQuery(report);
                break;
            case STREAMING_FRESHNESS:
                streamingFreshness(report);
                break;
            case COMPACTION:
                compaction(report);
                break;
            case LIFECYCLE:
                new Lifecycle(this, params).run(report);
                break;
            case CHECKPOINT_UNDER_COMPACTION:
                new CheckpointUnderCompaction(this, params).run(report);
                break;
            case SOAK:
                new Soak(this, params).run(report);
                break;
            case STREAMING_CATCH_UP:
                new StreamingCatchUp(this, params.catchUpSnapshots).run(report);
                break;
            case LOOKUP_JOIN:
                new LookupJoin(this, params, false, false).run(report);
                break;
            case LOOKUP_JOIN_MISSES:
                new LookupJoin(this, params, true, false).run(report);
                break;
            case LOOKUP_JOIN_FULL:
                new LookupJoin(this, params, false, true).run(report);
                break;
            default:
                throw new IllegalArgumentException(
                        "Cannot run " + workload.id + " with Flink: not a Flink SQL workload");
        }
    }

    /** The name of the append table append-batch-scan reads, per size. */
    String preparedAppendTable() {
        return "append_" + params.rows + "_" + params.keys;
    }

    /** The name of the lookup joins' dimension table, per size. */
    String preparedDimTable() {
        return "dim_" + params.dimRows;
    }

    /**
     * Writes {@link #preparedDimTable()} unless it is there (not timed): ids 0 to {@code --dim-rows}
     * - 1, each once, a 20-character name and a random value; 4 buckets.
     */
    void prepareDim() throws Exception {
        Report report = new Report("prepare", impl);
        SqlSession sql = open(report, false);
        String table = preparedDimTable();
        if (sql.tableExists(table)) {
            report.info("%s exists; not rewritten", table);
            return;
        }
        String staging = table + "_staging";
        sql.execute("DROP TABLE IF EXISTS bench.db." + staging);
        sql.execute(
                "CREATE TABLE bench.db."
                        + staging
                        + " ("
                        + DIM_COLUMNS
                        + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '4', "
                        + PARALLELISM_OPTIONS
                        + ")");
        sql.execute(
                "CREATE TEMPORARY TABLE gen ("
                        + DIM_COLUMNS
                        + ") WITH ('connector' = 'datagen', 'number-of-rows' = '"
                        + params.dimRows
                        + "', 'rows-per-second' = '"
                        + UNTHROTTLED
                        + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0',"
                        + " 'fields.id.end' = '"
                        + (params.dimRows - 1)
                        + "', 'fields.name.length' = '20')");
        long start = System.nanoTime();
        sql.executeAndWait("INSERT INTO bench.db." + staging + " SELECT * FROM gen");
        double elapsed = seconds(start);
        Row check =
                sql.query("SELECT COUNT(*), MIN(id), MAX(id) FROM bench.db." + staging).get(0);
        if (((Number) check.getField(0)).longValue() != params.dimRows
                || ((Number) check.getField(1)).longValue() != 0
                || ((Number) check.getField(2)).longValue() != params.dimRows - 1) {
            throw new IllegalStateException(
                    "Cannot prepare "
                            + table
                            + ": expected ids 0 to "
                            + (params.dimRows - 1)
                            + " once each, got (count, min, max) = "
                            + check);
        }
        sql.execute("ALTER TABLE bench.db." + staging + " RENAME TO bench.db." + table);
        report.info("prepared %s (%s rows) in %.1f s", table, check.getField(0), elapsed);
    }

    /** Writes {@link #preparedTable()} unless it is there (not timed). */
    void prepare() throws Exception {
        prepare(preparedTable(), true);
    }

    /** Writes {@link #preparedAppendTable()}, the same rows in an append table, unless it is there (not timed). */
    void prepareAppend() throws Exception {
        prepare(preparedAppendTable(), false);
    }

    private void prepare(String table, boolean primaryKey) throws Exception {
        Report report = new Report("prepare", impl);
        SqlSession sql = open(report, false);
        if (sql.tableExists(table)) {
            report.info("%s exists; not rewritten", table);
            return;
        }
        // Written under another name and renamed, so a failed preparation is never taken as done.
        String staging = table + "_staging";
        sql.execute("DROP TABLE IF EXISTS bench.db." + staging);
        sql.execute(primaryKey ? pkTableDdl(staging) : appendTableDdl(staging));
        sql.execute(generatorDdl("gen", params.rows, params.keys, UNTHROTTLED));
        long start = System.nanoTime();
        sql.executeAndWait("INSERT INTO bench.db." + staging + " SELECT * FROM gen");
        sql.execute("ALTER TABLE bench.db." + staging + " RENAME TO bench.db." + table);
        report.info("prepared %s in %.1f s", table, seconds(start));
    }

    /**
     * {@code INSERT INTO} a blackhole table {@code SELECT *} from {@code table}: every row materialised
     * with all its columns (the aggregate of the batch scans reads three). Best of two runs, after a
     * {@code COUNT(*)} that also warms the planner; whole statement and job alone.
     */
    private void copy(Report report, String table) throws Exception {
        SqlSession sql = open(report, false);
        sql.execute("CREATE TEMPORARY TABLE copied (" + COLUMNS + ") WITH ('connector' = 'blackhole')");
        long rows = ((Number) sql.query("SELECT COUNT(*) FROM bench.db." + table).get(0).getField(0)).longValue();
        double best = Double.MAX_VALUE;
        long bestJobMillis = Long.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            long start = System.nanoTime();
            TableResult result = sql.execute("INSERT INTO copied SELECT * FROM bench.db." + table);
            result.await();
            best = Math.min(best, seconds(start));
            bestJobMillis = Math.min(bestJobMillis,
                    result.getJobClient().get().getJobExecutionResult().get().getNetRuntime());
        }
        report.info("%d rows copied; best %.2f s (job %.2f s)", rows, best, bestJobMillis / 1e3);
        report.result("rows-per-s", rows / best, "rows/s");
        report.result("job-rows-per-s", rows / (bestJobMillis / 1e3), "rows/s");
    }

    private void pointQuery(Report report) throws Exception {
        SqlSession sql = open(report, false);
        String table = "bench.db." + preparedTable();
        sql.query("SELECT * FROM " + table + " WHERE id = 1"); // warm-up: planner, codegen, reader
        double[] times = new double[3];
        for (int i = 0; i < times.length; i++) {
            long key = params.keys * (i + 1) / (times.length + 1);
            long start = System.nanoTime();
            int found = sql.query("SELECT * FROM " + table + " WHERE id = " + key).size();
            times[i] = seconds(start);
            report.info("id = %d: %d row(s) in %.3f s", key, found, times[i]);
        }
        Arrays.sort(times);
        report.result("point-query-s", times[times.length / 2], "s");
        // About 1 row in 1,000: `i` is uniform over all ints, so file statistics cannot skip it.
        long start = System.nanoTime();
        Object matches =
                sql.query("SELECT COUNT(*) FROM " + table + " WHERE i BETWEEN 0 AND 4294967")
                        .get(0)
                        .getField(0);
        double filter = seconds(start);
        report.info("value filter: %s row(s) in %.3f s", matches, filter);
        report.result("value-filter-s", filter, "s");
    }

    private void streamingFreshness(Report report) throws Exception {
        SqlSession sql = open(report, true);
        String table = "fresh";
        long rows = params.ratePerSecond * params.streamSeconds;
        sql.execute("DROP TABLE IF EXISTS bench.db." + table);
        // With changelog-producer = input the streaming read emits the written rows as they are;
        // with none, Flink adds a normalize step whose keyed state (every key read so far) is
        // snapshotted at each 1 s checkpoint and soon dominates the latency being measured.
        sql.execute(pkTableDdl(table, "'changelog-producer' = 'input', "));
        // Unique ids, so the reader sees every row; ts (below) is the generation time of the row.
        SequenceRows.register(sql, "gen", rows, params.ratePerSecond);
        VisibleLatency.reset((int) rows);
        sql.createFunction("visible_latency", VisibleLatency.class);
        sql.execute(
                "CREATE TEMPORARY TABLE seen (latency_ms BIGINT) WITH ('connector' = 'blackhole')");
        TableResult reader =
                sql.execute(
                        "INSERT INTO seen SELECT visible_latency(ts) FROM bench.db."
                                + table
                                + " /*+ OPTIONS('continuous.discovery-interval' = '100 ms') */");
        // The reader job must be running before the first row is written.
        while (reader.getJobClient().get().getJobStatus().get() != JobStatus.RUNNING) {
            Thread.sleep(50);
        }
        Thread.sleep(2_000);
        long start = System.nanoTime();
        sql.executeAndWait(
                "INSERT INTO bench.db."
                        + table
                        + " SELECT seq, CAST(seq % 1000 AS INT), seq, CAST(seq AS DOUBLE), s, CAST(LOCALTIMESTAMP AS TIMESTAMP(3)) FROM gen");
        double writeSeconds = seconds(start);
        long waitUntil = System.nanoTime() + 60_000_000_000L;
        while (VisibleLatency.seen() < rows
                && System.nanoTime() < waitUntil
                && !reader.getJobClient().get().getJobStatus().get().isGloballyTerminalState()) {
            Thread.sleep(100);
        }
        JobStatus readerStatus = reader.getJobClient().get().getJobStatus().get();
        reader.getJobClient().get().cancel();
        int n = VisibleLatency.seen();
        report.info(
                "the INSERT job took %.1f s for %d rows; the reader saw %d of them (reader %s)",
                writeSeconds, rows, n, readerStatus);
        if (n == 0) {
            throw new IllegalStateException(
                    "Streaming reader saw no rows within 60 s after the writer finished (reader "
                            + readerStatus
                            + ")");
        }
        // The writer's rate without its job start-up: rows seen over their generation time span.
        double spanSeconds = Math.max(0.001, VisibleLatency.generationSpanMillis() / 1e3);
        report.info("rows generated over %.1f s (first to last row seen)", spanSeconds);
        report.result("achieved-rows-per-s", n / spanSeconds, "rows/s");
        long[] sorted = VisibleLatency.recorded();
        Arrays.sort(sorted);
        report.result("latency-p50-ms", sorted[n / 2], "ms");
        report.result("latency-p99-ms", sorted[Math.min(n - 1, (int) (n * 0.99))], "ms");
        report.result("visible-fraction", (double) n / rows, "ratio");
    }

    private void compaction(Report report) throws Exception {
        String table = "compacted";
        long rows = params.ratePerSecond * params.streamSeconds;
        SqlSession stream = open(report, true);
        stream.execute("DROP TABLE IF EXISTS bench.db." + table);
        stream.execute(pkTableDdl(table));
        stream.execute(generatorDdl("gen", rows, params.keys, params.ratePerSecond));
        long start = System.nanoTime();
        stream.executeAndWait("INSERT INTO bench.db." + table + " SELECT * FROM gen");
        report.info("streamed %d rows in %.1f s", rows, seconds(start));

        SqlSession sql = SqlSession.batch(warehouseUri);
        long records = filesPerLevel(sql, report, table, "after-stream");
        // Paimon's CALL returns once its job is submitted unless table.dml-sync is set; ours always waits.
        sql.set("table.dml-sync", "true");
        start = System.nanoTime();
        try {
            sql.executeAndWait("CALL bench.sys.compact(`table` => 'db." + table + "')");
        } catch (Exception e) {
            report.unsupported(
                    "full-compaction-rows-per-s",
                    "CALL sys.compact failed: " + rootCause(e));
            return;
        }
        double elapsed = seconds(start);
        report.info("full compaction of %d records in %.2f s", records, elapsed);
        report.result("full-compaction-rows-per-s", records / elapsed, "rows/s");
        filesPerLevel(sql, report, table, "after-compaction");
    }

    /** Reports files and bytes per level from {@code $files}; returns the records they hold. */
    long filesPerLevel(SqlSession sql, Report report, String table, String when)
            throws Exception {
        long files = 0;
        long bytes = 0;
        long records = 0;
        for (Row row :
                sql.query(
                        "SELECT `level`, COUNT(*), SUM(file_size_in_bytes), SUM(record_count) FROM"
                                + " bench.db.`"
                                + table
                                + "$files` GROUP BY `level` ORDER BY `level`")) {
            report.info(
                    "%s: level %s: %s files, %s bytes, %s records",
                    when, row.getField(0), row.getField(1), row.getField(2), row.getField(3));
            files += ((Number) row.getField(1)).longValue();
            bytes += ((Number) row.getField(2)).longValue();
            records += ((Number) row.getField(3)).longValue();
        }
        report.result("files-" + when, files, "files");
        report.result("mbytes-" + when, bytes / 1e6, "MB");
        return records;
    }

    String warehouseUri() {
        return warehouseUri;
    }

    /**
     * A streaming session without checkpoints whose {@code io.tmp.dirs} is {@code tmpDir}, its
     * catalog checked.
     */
    SqlSession openStreamingWithTmpDir(Report report, String tmpDir) {
        return checked(report, SqlSession.streamingWithTmpDir(warehouseUri, tmpDir));
    }

    /** A streaming session checkpointing every {@code --checkpoint-ms}, its catalog checked. */
    SqlSession openStreaming(Report report) {
        return openStreaming(report, params.checkpointMillis);
    }

    /** A streaming session checkpointing every {@code checkpointMillis}, its catalog checked. */
    SqlSession openStreaming(Report report, long checkpointMillis) {
        return openStreaming(report, checkpointMillis, java.util.Map.of());
    }

    /** {@link #openStreaming(Report, long)} with more Flink configuration. */
    SqlSession openStreaming(Report report, long checkpointMillis, java.util.Map<String, String> settings) {
        return checked(report, SqlSession.streaming(
                warehouseUri, warehouseUri.replaceFirst("warehouse/?$", "checkpoints"), checkpointMillis, settings));
    }

    /** A batch session, its catalog checked. */
    SqlSession openBatch(Report report) {
        return open(report, false);
    }

    private SqlSession open(Report report, boolean streaming) {
        return streaming ? openStreaming(report) : checked(report, SqlSession.batch(warehouseUri));
    }

    private SqlSession checked(Report report, SqlSession sql) {
        String catalogClass = sql.catalogClass();
        report.info("catalog 'paimon' is %s", catalogClass);
        String expected = "ours".equals(impl) ? "dev.streamhouse." : "org.apache.paimon.";
        if (!catalogClass.startsWith(expected)) {
            throw new IllegalStateException(
                    "Cannot benchmark "
                            + impl
                            + ": the catalog 'paimon' is "
                            + catalogClass
                            + ", expected a class under "
                            + expected
                            + "; check the classpath bin/bench builds");
        }
        return sql;
    }

    static String pkTableDdl(String table) {
        return pkTableDdl(table, "");
    }

    static String pkTableDdl(String table, String extraOptions) {
        return "CREATE TABLE bench.db."
                + table
                + " ("
                + COLUMNS
                + ", PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '4', "
                + extraOptions
                + PARALLELISM_OPTIONS
                + ")";
    }

    static String appendTableDdl(String table) {
        return "CREATE TABLE bench.db." + table + " (" + COLUMNS + ") WITH (" + PARALLELISM_OPTIONS + ")";
    }

    /** A bounded datagen table: ids uniform in [1, keys], strings of 20 characters. */
    static String generatorDdl(String name, long rows, long keys, long rowsPerSecond) {
        return generatorDdl(name, rows, keys, rowsPerSecond, "");
    }

    /** {@link #generatorDdl(String, long, long, long)} with more options ({@code 'k' = 'v', } each). */
    static String generatorDdl(String name, long rows, long keys, long rowsPerSecond, String extraOptions) {
        return "CREATE TEMPORARY TABLE "
                + name
                + " ("
                + COLUMNS
                + ") WITH ("
                + extraOptions
                + "'connector' = 'datagen', 'number-of-rows' = '"
                + rows
                + "', 'rows-per-second' = '"
                + rowsPerSecond
                + "', 'fields.id.min' = '1', 'fields.id.max' = '"
                + keys
                + "', 'fields.s.length' = '20', 'fields.ts.max-past' = '1 h')";
    }

    static String rootCause(Throwable t) {
        Throwable cause = t;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
