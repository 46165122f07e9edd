package dev.streamhouse.bench;

import org.apache.flink.types.Row;

import java.util.Map;
import java.util.TreeMap;

/**
 * Workload {@code pk-batch-scan-dv}: the batch scan of a primary-key table with {@code
 * deletion-vectors.enabled}, whose reads skip level 0 and read every other file as it is, leaving
 * out the rows its deletion vectors delete, instead of merging sorted runs by key.
 *
 * <p>Not timed: {@link #WRITER}'s writer (Apache Paimon's, until ours writes deletion vectors) writes
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
 * <p>Timed, per implementation: {@code SELECT COUNT(*), SUM(b), SUM(d)} over the deletion-vector
 * table (cold, warm, warm job; as {@code pk-batch-scan}), then the same over the merge-on-read twin
 * ({@code mor-} metrics, warm and warm job), and their ratio ({@code dv-over-mor-warm-job}): how much
 * faster the implementation reads the deletion-vector table than the same rows merged on read. Both
 * scans must return the same row.
 */
final class DvBatchScan {
    /**
     * The implementation whose writer prepares both tables. Apache Paimon's, since ours cannot write
     * deletion vectors yet; when it can, set this to {@code "ours"} (the preparation's SQL is the same
     * for both).
     */
    static final String WRITER = "paimon";
    /** INSERT rounds: each after the first replaces versions the earlier ones left on higher levels. */
    static final int ROUNDS = 3;

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
        FlinkWorkloads.Scan dv = workloads.batchScan(report, sql, dvTable(), "rows (deletion vectors applied)", "");
        FlinkWorkloads.Scan mor = workloads.batchScan(report, sql, morTable(), "merged rows", "mor-");
        if (!dv.row.getField(0).equals(mor.row.getField(0)) || !dv.row.getField(1).equals(mor.row.getField(1))) {
            throw new IllegalStateException("Cannot measure pk-batch-scan-dv: " + dvTable() + " and "
                    + morTable() + " hold the same rows, but (COUNT(*), SUM(b), SUM(d)) read " + dv.row + " and "
                    + mor.row);
        }
        if (dv.warmJobRowsPerSecond > 0 && mor.warmJobRowsPerSecond > 0) {
            report.result("dv-over-mor-warm-job", dv.warmJobRowsPerSecond / mor.warmJobRowsPerSecond, "ratio");
        }
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
