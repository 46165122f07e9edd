package dev.streamhouse.bench;

import org.apache.flink.types.Row;

import java.util.Map;
import java.util.TreeMap;

/**
 * Workload {@code pk-batch-scan-dv}: the batch scan of a primary-key table with {@code
 * deletion-vectors.enabled}, whose reads skip level 0 and read every other file as it is, leaving
 * out the rows its deletion vectors delete, instead of merging sorted runs by key.
 *
 * <p>Not timed: {@link #WRITER}'s writer (ours) writes
 * two primary-key tables of 4 buckets from the same rows, in {@link #ROUNDS} batch rounds of {@code
 * --rows / ROUNDS} datagen rows each, ids uniform in [1, {@code --keys}], kept once per id and round
 * (one statement set per round writes both tables): {@link #dvTable()} with {@code
 * deletion-vectors.enabled} = true, whose writer compacts each round's level-0 files up and marks the
 * versions they replace on higher levels deleted (so level 0 ends empty and the earlier rounds' files
 * keep their replaced rows, deleted by vector), and {@link #morTable()}, the same table without
 * deletion vectors, whose sorted runs a batch scan merges by key. Both implementations read these two
 * tables, from one warehouse. The preparation checks that level 0 of the deletion-vector table is
 * empty, that some rows are deleted by vectors, and that both tables hold the same rows.
 *
 * <p>Timed, per implementation, in one JVM: {@code SELECT COUNT(*), SUM(b), SUM(d)} over the
 * deletion-vector table once cold ({@code cold-rows-per-s}), then, after {@link #WARM_UP_ROUNDS}
 * untimed scans of each table, {@link #TIMED_ROUNDS} scans of each, alternating, the best counting:
 * {@code warm-rows-per-s} and {@code warm-job-rows-per-s} (the job's own time, without planning and
 * the MiniCluster's start) of the deletion-vector table, {@code mor-warm-rows-per-s} and {@code
 * mor-warm-job-rows-per-s} of its merge-on-read twin, and their job-time ratio {@code
 * dv-over-mor-warm-job}: how many times faster the implementation reads the deletion-vector table than
 * the same rows merged on read. Every scan must return the first one's row.
 */
final class DvBatchScan {
    /**
     * The implementation whose writer prepares both tables: ours (the preparation's SQL is the same
     * for both; Apache Paimon's writer prepared them until ours wrote deletion vectors).
     */
    static final String WRITER = "ours";
    /** INSERT rounds: each after the first replaces versions the earlier ones left on higher levels. */
    static final int ROUNDS = 3;
    /** Untimed scans of each table after the cold one, alternating. */
    static final int WARM_UP_ROUNDS = 2;
    /** Timed scans of each table, alternating; the best counts. */
    static final int TIMED_ROUNDS = 3;
    private static final String QUERY = "SELECT COUNT(*), SUM(b), SUM(d) FROM bench.db.";

    private final FlinkWorkloads workloads;
    private final BenchParams params;

    DvBatchScan(FlinkWorkloads workloads, BenchParams params) {
        this.workloads = workloads;
        this.params = params;
    }

    /** The deletion-vector table, per size. */
    String dvTable() {
        return "pk_dv_" + params.rows + "_" + params.keys;
    }

    /** The same rows without deletion vectors, per size. */
    String morTable() {
        return "pk_mor_" + params.rows + "_" + params.keys;
    }

    /** Writes both tables unless they are there (not timed); only as {@link #WRITER}. */
    void prepare() throws Exception {
        Report report = new Report("prepare", workloads.impl());
        if (!WRITER.equals(workloads.impl())) {
            throw new IllegalArgumentException("Cannot prepare the tables of pk-batch-scan-dv as "
                    + workloads.impl() + ": " + WRITER + "'s writer prepares them (DvBatchScan.WRITER)");
        }
        SqlSession sql = workloads.openBatch(report);
        if (sql.tableExists(dvTable()) && sql.tableExists(morTable())) {
            report.info("%s and %s exist; not rewritten", dvTable(), morTable());
            return;
        }
        // Written under other names and renamed, so a failed preparation is never taken as done.
        String dv = dvTable() + "_staging";
        String mor = morTable() + "_staging";
        for (String t : new String[] {dvTable(), morTable(), dv, mor}) {
            sql.execute("DROP TABLE IF EXISTS bench.db." + t);
        }
        sql.execute(FlinkWorkloads.pkTableDdl(dv, "'deletion-vectors.enabled' = 'true', "));
        sql.execute(FlinkWorkloads.pkTableDdl(mor, ""));
        long start = System.nanoTime();
        long generated = 0;
        for (int round = 1; round <= ROUNDS; round++) {
            long rows = round < ROUNDS ? params.rows / ROUNDS : params.rows - generated;
            String gen = "gen" + round;
            sql.execute(FlinkWorkloads.generatorDdl(gen, rows, params.keys, FlinkWorkloads.UNTHROTTLED));
            // One version per id and round: which of two versions of a key in one INSERT a table keeps
            // depends on the order its writer sees them in, and (measured with Apache Paimon 1.3.1) on
            // the table: with deletion vectors it kept other ones than without. Across rounds the
            // later round wins in both.
            String view = "round" + round;
            sql.execute("CREATE TEMPORARY VIEW " + view + " AS SELECT id, i, b, d, s, ts FROM (SELECT *,"
                    + " ROW_NUMBER() OVER (PARTITION BY id ORDER BY b, i) AS rn FROM " + gen + ") WHERE rn = 1");
            // One statement set, the view's rows computed once for both tables.
            sql.executeAndWait("EXECUTE STATEMENT SET BEGIN "
                    + "INSERT INTO bench.db." + dv + " SELECT * FROM " + view + "; "
                    + "INSERT INTO bench.db." + mor + " SELECT * FROM " + view + "; END");
            generated += rows;
        }
        double elapsed = (System.nanoTime() - start) / 1e9;

        Map<Integer, long[]> dvLevels = levels(sql, report, dv);
        levels(sql, report, mor);
        if (dvLevels.containsKey(0)) {
            throw new IllegalStateException("Cannot prepare " + dvTable() + ": " + dvLevels.get(0)[0]
                    + " file(s) stay on level 0 after " + ROUNDS + " rounds, which its batch reads skip");
        }
        long inFiles = dvLevels.values().stream().mapToLong(v -> v[1]).sum();
        String check = "SELECT COUNT(*), SUM(b), SUM(id) FROM bench.db.";
        Row dvRow = sql.query(check + dv).get(0);
        Row morRow = sql.query(check + mor).get(0);
        if (!dvRow.equals(morRow)) {
            throw new IllegalStateException("Cannot prepare " + dvTable() + ": it and " + morTable()
                    + " were written from the same rows but read (COUNT(*), SUM(b), SUM(id)) = " + dvRow
                    + " and " + morRow);
        }
        long live = ((Number) dvRow.getField(0)).longValue();
        if (inFiles <= live) {
            throw new IllegalStateException("Cannot prepare " + dvTable() + ": its files hold " + inFiles
                    + " rows and it reads " + live + ", so no row is deleted by a vector");
        }
        sql.execute("ALTER TABLE bench.db." + dv + " RENAME TO bench.db." + dvTable());
        sql.execute("ALTER TABLE bench.db." + mor + " RENAME TO bench.db." + morTable());
        report.info("prepared %s and %s (%d rows generated, %d live, %d of the %d rows in %s's files deleted"
                + " by vectors) in %.1f s", dvTable(), morTable(), generated, live, inFiles - live, inFiles,
                dvTable(), elapsed);
    }

    void run(Report report) throws Exception {
        SqlSession sql = workloads.openBatch(report);
        String dvQuery = QUERY + dvTable();
        String morQuery = QUERY + morTable();
        long start = System.nanoTime();
        Row expected = sql.query(dvQuery).get(0);
        double cold = seconds(start);
        long rows = ((Number) expected.getField(0)).longValue();
        // Not timed: the reader and Flink's per-row path take several 1-million-row queries to be
        // compiled (the job time of the first few keeps falling); both tables alternate so neither
        // warms the other's code only.
        for (int i = 0; i < WARM_UP_ROUNDS; i++) {
            check(sql.timedQuery(morQuery), expected, morTable());
            check(sql.timedQuery(dvQuery), expected, dvTable());
        }
        double[] dv = {Double.MAX_VALUE, Double.MAX_VALUE};
        double[] mor = {Double.MAX_VALUE, Double.MAX_VALUE};
        for (int i = 0; i < TIMED_ROUNDS; i++) {
            timed(sql, dvQuery, expected, dvTable(), dv);
            timed(sql, morQuery, expected, morTable(), mor);
        }
        report.info("%d rows; %s: cold %.2f s, warm %.2f s (job %.2f s); %s: warm %.2f s (job %.2f s)", rows,
                dvTable(), cold, dv[0], dv[1], morTable(), mor[0], mor[1]);
        report.result("cold-rows-per-s", rows / cold, "rows/s");
        report.result("warm-rows-per-s", rows / dv[0], "rows/s");
        report.result("warm-job-rows-per-s", rows / dv[1], "rows/s");
        report.result("mor-warm-rows-per-s", rows / mor[0], "rows/s");
        report.result("mor-warm-job-rows-per-s", rows / mor[1], "rows/s");
        report.result("dv-over-mor-warm-job", mor[1] / dv[1], "ratio");
    }

    /** Runs {@code query}, checks its row, and keeps the best wall and job seconds in {@code best}. */
    private static void timed(SqlSession sql, String query, Row expected, String table, double[] best)
            throws Exception {
        long start = System.nanoTime();
        SqlSession.Timed run = sql.timedQuery(query);
        double wall = seconds(start);
        check(run, expected, table);
        if (run.jobMillis <= 0) {
            throw new IllegalStateException("Cannot measure " + table + ": Flink reported no job time");
        }
        best[0] = Math.min(best[0], wall);
        best[1] = Math.min(best[1], run.jobMillis / 1e3);
    }

    /** Both tables hold the same rows, so every scan returns the first one's row. */
    private static void check(SqlSession.Timed run, Row expected, String table) {
        Row got = run.rows.get(0);
        // SUM(d) of doubles depends on the order rows are added in; COUNT(*) and SUM(b) do not.
        if (!got.getField(0).equals(expected.getField(0)) || !got.getField(1).equals(expected.getField(1))) {
            throw new IllegalStateException("Cannot measure pk-batch-scan-dv: " + table + " read (COUNT(*), SUM(b),"
                    + " SUM(d)) = " + got + ", but the first scan of the same rows read " + expected);
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Files and records per level of {@code table}, from {@code $files}: level -> {files, records}. */
    private static Map<Integer, long[]> levels(SqlSession sql, Report report, String table) throws Exception {
        Map<Integer, long[]> out = new TreeMap<>();
        for (Row row : sql.query("SELECT `level`, COUNT(*), SUM(record_count) FROM bench.db.`" + table
                + "$files` GROUP BY `level`")) {
            out.put(((Number) row.getField(0)).intValue(),
                    new long[] {((Number) row.getField(1)).longValue(), ((Number) row.getField(2)).longValue()});
        }
        StringBuilder text = new StringBuilder();
        out.forEach((level, v) -> text.append(String.format(" level %d: %d files, %d rows;", level, v[0], v[1])));
        report.info("%s:%s", table, text);
        return out;
    }
}
