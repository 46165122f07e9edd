package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Aggregates computed in the source, per split, from the rows it reads: every pushed query must give
 * what Flink computes from the rows (the same query over a LIMIT that holds every row, which keeps
 * the aggregate out of the source), with NULLs, integer sums that wrap, merged and deleted primary-key
 * rows and deletion vectors. The doubles summed are exact in binary, so the order of the additions,
 * which differs between the two plans, cannot change the sums.
 */
class AggregatePushDownITCase extends CatalogITCaseBase {
    /** What Flink's plan shows for a scan that computes aggregates. */
    private static final String PUSHED = "aggregates=[grouping=[], aggFunctions=[";
    private static final String COLUMNS = "tn TINYINT, sm SMALLINT, i INT, b BIGINT, f FLOAT, d DOUBLE, dt DATE, "
            + "s STRING, amount DECIMAL(10, 2)";
    private static final String AGGREGATES = "COUNT(*), COUNT(i), COUNT(s), SUM(tn), SUM(sm), SUM(i), SUM(b), SUM(f), "
            + "SUM(d), MIN(tn), MAX(sm), MIN(i), MAX(i), MIN(b), MAX(b), MIN(f), MAX(f), MIN(d), MAX(d), "
            + "MIN(dt), MAX(dt), AVG(i), AVG(d)";

    private static String row(int id, boolean nulls) {
        if (nulls) {
            return "(CAST(NULL AS TINYINT), CAST(NULL AS SMALLINT), CAST(NULL AS INT), CAST(NULL AS BIGINT), "
                    + "CAST(NULL AS FLOAT), CAST(NULL AS DOUBLE), CAST(NULL AS DATE), CAST(NULL AS STRING), "
                    + "CAST(NULL AS DECIMAL(10, 2)))";
        }
        // values near the types' ends, so that the sums wrap around as Flink's do
        return String.format("(CAST(%d AS TINYINT), CAST(%d AS SMALLINT), %d, CAST(%d AS BIGINT), CAST(%s AS FLOAT), %s, "
                        + "DATE '2024-01-%02d', 's%d', %d.25)",
                120 + id % 7, 32000 + id % 700, 2147480000 + id * 7, Long.MAX_VALUE / 3 + id * 1_000_003L,
                (id % 13) * 0.5 - 2, (id % 17) * 0.25 - 1, 1 + id % 28, id, id);
    }

    private static String rows(int from, int to) {
        StringBuilder values = new StringBuilder();
        for (int id = from; id < to; id++) {
            values.append(values.length() == 0 ? "" : ", ").append(row(id, id % 5 == 0));
        }
        return values.toString();
    }

    @Test
    void appendTableAggregatesAreFlinksAlsoWithNullsAndWrappingSums() {
        sql("CREATE TABLE t (%s) WITH ('bucket' = '-1')", COLUMNS);
        sql("INSERT INTO t VALUES " + rows(0, 40));
        sql("INSERT INTO t VALUES " + rows(40, 90));
        sql("INSERT INTO t VALUES " + row(90, true)); // a file of NULLs only
        assertPushedAndSameAsFlinks("t", AGGREGATES);
        assertPushedAndSameAsFlinks("t", "SUM(i)");
        assertPushedAndSameAsFlinks("t", "COUNT(s), MAX(d)");
        // only NULLs / no rows at all
        assertPushedAndSameAsFlinks("t /*+ OPTIONS('scan.snapshot-id' = '3') */", AGGREGATES);
        sql("CREATE TABLE nulls (%s)", COLUMNS);
        sql("INSERT INTO nulls VALUES " + row(0, true) + ", " + row(1, true));
        assertPushedAndSameAsFlinks("nulls", AGGREGATES);
        assertThat(rows("SELECT SUM(i), MIN(d), COUNT(i), COUNT(*) FROM nulls")).containsExactly("+I[null, null, 0, 2]");
        sql("CREATE TABLE empty_t (%s)", COLUMNS);
        assertPushedAndSameAsFlinks("empty_t", AGGREGATES);
    }

    @Test
    void aggregatesFlinkMustComputeAreNotPushed() {
        sql("CREATE TABLE t (%s, p STRING) PARTITIONED BY (p)", COLUMNS);
        sql("INSERT INTO t SELECT *, 'a' FROM (VALUES " + rows(0, 30) + ")");
        sql("INSERT INTO t SELECT *, 'b' FROM (VALUES " + rows(30, 50) + ")");
        for (String aggregates : new String[] {"SUM(amount)", "MAX(s)", "COUNT(DISTINCT i)", "SUM(i + 1)",
                "SUM(i) FILTER (WHERE b > 0)", "SUM(i), MAX(s)"}) {
            assertNotPushedAndSameAsFlinks("SELECT " + aggregates + " FROM t");
        }
        assertNotPushedAndSameAsFlinks("SELECT p, SUM(i) FROM t GROUP BY p");
        assertNotPushedAndSameAsFlinks("SELECT SUM(i) FROM t WHERE b > 0");
        // incremental reads return changes, which Flink aggregates
        assertNotPushedAndSameAsFlinks("SELECT COUNT(*), SUM(i) FROM t /*+ OPTIONS('incremental-between' = '1,2') */");
        // a partition filter is applied exactly by the source: still pushed
        assertPushedAndSameAsFlinks("t WHERE p = 'b'", "COUNT(*), SUM(i), MIN(d)");
    }

    @Test
    void primaryKeyTablesAggregateTheirMergedLiveRows() {
        sql("CREATE TABLE pk (id INT, %s, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2')", COLUMNS);
        sql("INSERT INTO pk SELECT * FROM (VALUES %s)", withIds(0, 60));
        sql("INSERT INTO pk SELECT * FROM (VALUES %s)", withIds(30, 80)); // updates 30..59
        sql("DELETE FROM pk WHERE id < 10");
        assertPushedAndSameAsFlinks("pk", AGGREGATES);
        assertThat(rows("SELECT COUNT(*) FROM pk")).containsExactly("+I[70]");

        sql("CREATE TABLE dv (id INT, %s, PRIMARY KEY (id) NOT ENFORCED) "
                + "WITH ('bucket' = '2', 'deletion-vectors.enabled' = 'true')", COLUMNS);
        sql("INSERT INTO dv SELECT * FROM (VALUES %s)", withIds(0, 60));
        sql("INSERT INTO dv SELECT * FROM (VALUES %s)", withIds(30, 80));
        sql("DELETE FROM dv WHERE id < 10");
        assertPushedAndSameAsFlinks("dv", AGGREGATES);
        assertThat(rows("SELECT " + AGGREGATES + " FROM dv")).isEqualTo(rows("SELECT " + AGGREGATES + " FROM pk"));
    }

    /** Rows of {@code (id, ...)} with ids [from, to); the values depend on the id and the range, so updates differ. */
    private static String withIds(int from, int to) {
        StringBuilder values = new StringBuilder();
        for (int id = from; id < to; id++) {
            String r = row(id + from, id % 5 == 0);
            values.append(values.length() == 0 ? "" : ", ").append("(").append(id).append(", ")
                    .append(r, 1, r.length());
        }
        return values.toString();
    }

    private void assertPushedAndSameAsFlinks(String from, String aggregates) {
        String query = "SELECT " + aggregates + " FROM " + from;
        assertThat(tEnv.explainSql(query)).as(query).contains(PUSHED);
        String fromRows = "SELECT " + aggregates + " FROM (SELECT * FROM " + from + " LIMIT 2147483647)";
        assertThat(tEnv.explainSql(fromRows)).as(fromRows).doesNotContain("aggregates=[");
        assertThat(rows(query)).as(query).isEqualTo(rows(fromRows));
    }

    private void assertNotPushedAndSameAsFlinks(String query) {
        assertThat(tEnv.explainSql(query)).as(query).doesNotContain("aggregates=[");
        assertThat(rows(query)).as(query).isNotEmpty();
    }
}
