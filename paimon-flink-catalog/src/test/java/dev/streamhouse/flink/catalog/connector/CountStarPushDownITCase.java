package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code COUNT(*)} from metadata: pushed into the source when every split knows its row count, and
 * always the same answer as Flink counting the rows read.
 */
class CountStarPushDownITCase extends CatalogITCaseBase {
    private static final String PUSHED = "aggFunctions=[Count1AggFunction()]";

    @Test
    void appendTablesAreCountedFromMetadataAlsoWithPartitionFiltersAndTimeTravel() {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING) PARTITIONED BY (dt)");
        sql("INSERT INTO t VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'y')");
        sql("INSERT INTO t VALUES (4, 'd', 'y'), (5, 'e', 'z')");

        assertCount("t", 5, true);
        assertThat(explain("SELECT COUNT(1) FROM t")).contains(PUSHED);
        assertThat(rows("SELECT COUNT(1) FROM t")).containsExactly("+I[5]");
        assertCount("t WHERE dt = 'y'", 2, true);
        assertCount("t /*+ OPTIONS('scan.snapshot-id' = '1') */", 3, true);
        // Not from metadata: a filter Flink still applies, a grouping, another aggregate.
        assertCount("t WHERE id > 2", 3, false);
        assertThat(explain("SELECT dt, COUNT(*) FROM t GROUP BY dt")).doesNotContain(PUSHED);
        assertThat(explain("SELECT COUNT(v) FROM t")).doesNotContain("Count1AggFunction");
    }

    @Test
    void primaryKeyBucketsThatMustBeMergedAreCountedByReading() {
        sql("CREATE TABLE pk (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2')");
        sql("INSERT INTO pk VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        // One file per bucket: read without merging, so counted from metadata.
        assertCount("pk", 3, true);

        sql("INSERT INTO pk VALUES (1, 'a2'), (4, 'd')");
        // Two sorted runs in a bucket: the rows must be merged to be counted.
        assertCount("pk", 4, false);

        sql("DELETE FROM pk WHERE id = 2");
        assertCount("pk", 3, false);
    }

    @Test
    void deletionVectorsAreSubtracted() {
        sql("CREATE TABLE dv (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) "
                + "WITH ('bucket' = '1', 'deletion-vectors.enabled' = 'true')");
        sql("INSERT INTO dv VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
        sql("INSERT INTO dv VALUES (1, 'a2'), (2, 'b2'), (5, 'e')");
        assertCount("dv", 5, true);
        // Snapshot 1 holds only level-0 files, which batch reads of deletion-vector tables leave out
        // until they are compacted (as Paimon's do); snapshot 2 is that compaction.
        assertCount("dv /*+ OPTIONS('scan.snapshot-id' = '1') */", 0, true);
        assertCount("dv /*+ OPTIONS('scan.snapshot-id' = '2') */", 4, true);
    }

    /**
     * {@code SELECT COUNT(*) FROM <from>}: pushed into the source or not, and the same count as Flink's
     * own count of the rows read. The rows are read through a LIMIT that holds them all, which keeps
     * the aggregate out of the source on every Flink line (Flink 2 dropped the option that switched
     * aggregate push-down off).
     */
    private void assertCount(String from, long expected, boolean fromMetadata) {
        String query = "SELECT COUNT(*) FROM " + from;
        String plan = explain(query);
        if (fromMetadata) {
            assertThat(plan).contains(PUSHED);
        } else {
            assertThat(plan).doesNotContain(PUSHED);
        }
        assertThat(rows(query)).containsExactly("+I[" + expected + "]");
        String counted = "SELECT COUNT(*) FROM (SELECT * FROM " + from + " LIMIT 2147483647)";
        assertThat(explain(counted)).doesNotContain(PUSHED);
        assertThat(rows(counted)).containsExactly("+I[" + expected + "]");
    }

    private String explain(String query) {
        return tEnv.explainSql(query);
    }
}
