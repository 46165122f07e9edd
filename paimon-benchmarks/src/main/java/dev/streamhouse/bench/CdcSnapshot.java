package dev.streamhouse.bench;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.functions.ScalarFunction;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Workload {@code cdc-snapshot}: the snapshot phase of the {@code mysql-cdc} source (no Paimon
 * involved). A private MariaDB gets a table of {@code --rows} rows (default 1,000,000) of the
 * benchmark's columns; a Flink SQL table {@code 'connector' = 'mysql-cdc'} over it is read into a
 * {@code blackhole} table (rows counted by a scalar function on the key), once with Debezium's single-threaded snapshot ({@code
 * 'scan.incremental.snapshot.enabled' = 'false'}, the old path) and once with the chunked snapshot,
 * each at parallelism 2 (Debezium's snapshot reads on one of the two readers). Rows per second from
 * the job's submission to its last snapshot row (what a user waits), and from its first to its last
 * snapshot row (the reading alone). The driver sees the source only through SQL; the MySQL CDC
 * module and its dependencies are on this workload's classpath only.
 */
final class CdcSnapshot {
    /** Snapshot rows seen by the sink side of the running job (one job per JVM at a time). */
    static final AtomicLong ROWS = new AtomicLong();
    static final AtomicLong FIRST_ROW_NANOS = new AtomicLong();

    private final BenchParams params;
    private final Report report;

    CdcSnapshot(BenchParams params) {
        this.params = params;
        this.report = new Report(Workload.CDC_SNAPSHOT.id, "ours");
    }

    void run() throws Exception {
        long rows = params.cdcRows;
        try (MariaDbProcess server = MariaDbProcess.start(512)) {
            long loadStart = System.nanoTime();
            server.execute("SET SESSION sql_log_bin = 0", "CREATE DATABASE cdc",
                    "CREATE TABLE cdc.t (id BIGINT PRIMARY KEY, i INT, b BIGINT, d DOUBLE, s VARCHAR(20), "
                            + "ts DATETIME(3))",
                    "INSERT INTO cdc.t SELECT seq, seq % 1000000, seq * 31, seq / 7, "
                            + "SUBSTR(SHA1(seq), 1, 20), TIMESTAMP'2024-01-01 00:00:00' + INTERVAL seq SECOND "
                            + "FROM cdc.seq_1_to_" + rows,
                    "ANALYZE TABLE cdc.t");
            report.info("loaded %d rows into MariaDB in %.1f s (not timed)", rows,
                    (System.nanoTime() - loadStart) / 1e9);
            double debezium = measure(server, rows, "debezium", "'scan.incremental.snapshot.enabled' = 'false'");
            double chunked = measure(server, rows, "chunked-p2", "'scan.incremental.snapshot.enabled' = 'true'");
            report.result("chunked-p2-vs-debezium", chunked / debezium, "ratio");
        }
    }

    /** Runs one snapshot; returns its rows per second from submission to the last row. */
    private double measure(MariaDbProcess server, long rows, String mode, String option) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("rest.bind-port", "0");
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(SqlSession.PARALLELISM);
        StreamTableEnvironment tEnv = StreamTableEnvironment.create(env);
        tEnv.executeSql("CREATE TABLE src (id BIGINT, i INT, b BIGINT, d DOUBLE, s STRING, ts TIMESTAMP(3), "
                + "PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'mysql-cdc', 'hostname' = '127.0.0.1', "
                + "'port' = '" + server.port() + "', 'username' = '" + MariaDbProcess.USER + "', 'password' = '"
                + MariaDbProcess.PASSWORD + "', 'database-name' = 'cdc', 'table-name' = 't', "
                + "'server-id' = '5400-5401', 'server-time-zone' = 'UTC', " + option + ")");
        tEnv.executeSql("CREATE TABLE sink (id BIGINT) WITH ('connector' = 'blackhole')");
        tEnv.createTemporarySystemFunction("count_row", CountRow.class);
        ROWS.set(0);
        FIRST_ROW_NANOS.set(0);
        long submitted = System.nanoTime();
        JobClient job = tEnv.executeSql("INSERT INTO sink SELECT count_row(id) FROM src").getJobClient()
                .orElseThrow();
        try {
            long deadline = submitted + TimeUnit.MINUTES.toNanos(30);
            while (ROWS.get() < rows) {
                if (System.nanoTime() > deadline || job.getJobStatus().get().isGloballyTerminalState()) {
                    throw new IllegalStateException("The " + mode + " snapshot read " + ROWS.get() + " of " + rows
                            + " rows, job " + job.getJobStatus().get());
                }
                Thread.sleep(5);
            }
            long done = System.nanoTime();
            double total = (done - submitted) / 1e9;
            double reading = (done - FIRST_ROW_NANOS.get()) / 1e9;
            report.info("%s: %d rows, %.2f s from submission (%.2f s to the first row), %.2f s reading", mode,
                    rows, total, total - reading, reading);
            report.result(mode + "-rows-per-s", rows / total, "rows/s");
            report.result(mode + "-reading-rows-per-s", rows / reading, "rows/s");
            return rows / total;
        } finally {
            job.cancel().get();
            try {
                job.getJobExecutionResult().get();
            } catch (Exception cancelled) {
                // The job ends cancelled; its local cluster shuts down with it.
            }
        }
    }

    /**
     * Counts the rows that reach the sink: a scalar function on the key, so that rows stay in Flink's
     * internal format from the source's RowData to the blackhole sink, as in a pipeline into a table.
     */
    public static final class CountRow extends ScalarFunction {
        public long eval(long id) {
            if (ROWS.getAndIncrement() == 0) {
                FIRST_ROW_NANOS.set(System.nanoTime());
            }
            return id;
        }
    }
}
