package dev.streamhouse.bench;

/**
 * Workload {@code reader-scan}: the storage-level read, without Flink. Each implementation reads every
 * split of three tables through its own Java read API in one thread ({@link StoreReader}): the
 * merge-on-read table of {@code pk-batch-scan-dv} ({@link DvBatchScan#morTable()}: sorted runs merged
 * by key), its deletion-vector twin ({@link DvBatchScan#dvTable()}: files read as they are, rows left
 * out by vector) and the append table of {@code append-batch-scan} (raw files), all written once by
 * {@link DvBatchScan#WRITER}'s writer into one warehouse that both implementations read.
 *
 * <p>Timed, per implementation, in one JVM: a cold scan of each table first (not reported), then
 * {@link #WARM_UP_ROUNDS} untimed rounds over the three tables, then {@link #TIMED_ROUNDS} timed
 * rounds, the best counting: {@code mor-rows-per-s}, {@code dv-rows-per-s} and {@code raw-rows-per-s}
 * (rows read / (planning + reading)). Every scan of a table must read the sums its first scan read, and
 * the two primary-key tables the same sums (they hold the same rows); the sums are logged, so that the
 * two implementations' runs can be compared.
 */
final class ReaderScan {
    static final int WARM_UP_ROUNDS = 2;
    static final int TIMED_ROUNDS = 3;

    private final FlinkWorkloads workloads;
    private final DvBatchScan dvTables;

    ReaderScan(FlinkWorkloads workloads, BenchParams params) {
        this.workloads = workloads;
        this.dvTables = new DvBatchScan(workloads, params);
    }

    /** Writes the three tables unless they are there (not timed); only as {@link DvBatchScan#WRITER}. */
    void prepare() throws Exception {
        dvTables.prepare();
        workloads.prepareAppend();
    }

    void run(Report report, String warehouseUri) throws Exception {
        String[] kinds = {"mor", "dv", "raw"};
        String[] tables = {dvTables.morTable(), dvTables.dvTable(), workloads.preparedAppendTable()};
        StoreReader.Sums[] expected = new StoreReader.Sums[tables.length];
        double[] best = {Double.MAX_VALUE, Double.MAX_VALUE, Double.MAX_VALUE};
        try (StoreReader reader = StoreApis.create(StoreReader.class, workloads.impl(), "reader-scan")) {
            reader.open(warehouseUri);
            report.info("reader %s", reader.getClass().getName());
            for (int t = 0; t < tables.length; t++) {
                long start = System.nanoTime();
                expected[t] = reader.scan("db", tables[t]);
                report.info("%s (%s): %s, cold %.2f s", tables[t], kinds[t], expected[t], seconds(start));
            }
            if (!expected[0].sameRows(expected[1])) {
                throw new IllegalStateException("Cannot measure reader-scan: " + tables[0] + " and " + tables[1]
                        + " hold the same rows but read " + expected[0] + " and " + expected[1]);
            }
            for (int round = 0; round < WARM_UP_ROUNDS + TIMED_ROUNDS; round++) {
                for (int t = 0; t < tables.length; t++) {
                    long start = System.nanoTime();
                    StoreReader.Sums sums = reader.scan("db", tables[t]);
                    double elapsed = seconds(start);
                    if (!sums.sameRows(expected[t])) {
                        throw new IllegalStateException("Cannot measure reader-scan: " + tables[t] + " read "
                                + sums + ", but its first scan read " + expected[t]);
                    }
                    if (round >= WARM_UP_ROUNDS) {
                        best[t] = Math.min(best[t], elapsed);
                    }
                }
            }
        }
        for (int t = 0; t < tables.length; t++) {
            report.info("%s: best of %d scans %.3f s", tables[t], TIMED_ROUNDS, best[t]);
            report.result(kinds[t] + "-rows-per-s", expected[t].rows() / best[t], "rows/s");
        }
        report.result("dv-over-mor", best[0] / best[1], "ratio");
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }
}
