package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.flink.source.PaimonSourceBuilder;
import dev.streamhouse.storage.catalog.Identifier;
import org.junit.jupiter.api.Test;

import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

        assertCount("t", 5, Counted.METADATA);
        assertThat(explain("SELECT COUNT(1) FROM t")).contains(PUSHED);
        assertThat(rows("SELECT COUNT(1) FROM t")).containsExactly("+I[5]");
        assertCount("t WHERE dt = 'y'", 2, Counted.BY_SOURCE_OR_METADATA);
        assertCount("t /*+ OPTIONS('scan.snapshot-id' = '1') */", 3, Counted.METADATA);
        // Not from metadata: a filter Flink still applies, a grouping, another aggregate.
        assertCount("t WHERE id > 2", 3, Counted.BY_FLINK);
        assertThat(explain("SELECT dt, COUNT(*) FROM t GROUP BY dt")).doesNotContain(PUSHED);
        assertThat(explain("SELECT COUNT(v) FROM t")).doesNotContain("Count1AggFunction");
    }

    @Test
    void primaryKeyBucketsThatMustBeMergedAreCountedByReading() {
        sql("CREATE TABLE pk (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2')");
        sql("INSERT INTO pk VALUES (1, 'a'), (2, 'b'), (3, 'c')");
        // One file per bucket: read without merging, so counted from metadata.
        assertCount("pk", 3, Counted.METADATA);

        sql("INSERT INTO pk VALUES (1, 'a2'), (4, 'd')");
        // Two sorted runs in a bucket: the rows must be merged to be counted (by the source, see
        // AggregatePushDownITCase).
        assertCount("pk", 4, Counted.BY_SOURCE);

        sql("DELETE FROM pk WHERE id = 2");
        assertCount("pk", 3, Counted.BY_SOURCE);
    }

    @Test
    void deletionVectorsAreSubtracted() {
        sql("CREATE TABLE dv (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) "
                + "WITH ('bucket' = '1', 'deletion-vectors.enabled' = 'true')");
        sql("INSERT INTO dv VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
        sql("INSERT INTO dv VALUES (1, 'a2'), (2, 'b2'), (5, 'e')");
        assertCount("dv", 5, Counted.METADATA);
        // Snapshot 1 holds only level-0 files, which batch reads of deletion-vector tables leave out
        // until they are compacted (as Paimon's do); snapshot 2 is that compaction.
        assertCount("dv /*+ OPTIONS('scan.snapshot-id' = '1') */", 0, Counted.METADATA);
        assertCount("dv /*+ OPTIONS('scan.snapshot-id' = '2') */", 4, Counted.METADATA);
    }

    /** Who counts: the source from metadata, the source by reading the rows, or Flink. */
    private enum Counted {
        METADATA, BY_SOURCE, BY_FLINK,
        /** Pushed, with a filter {@link #metadataCount} does not apply. */
        BY_SOURCE_OR_METADATA
    }

    /**
     * {@code SELECT COUNT(*) FROM <from>}: counted where {@code counted} says, and the same count as
     * Flink's own count of the rows read. The rows are read through a LIMIT that holds them all, which
     * keeps the aggregate out of the source on every Flink line (Flink 2 dropped the option that
     * switched aggregate push-down off). Whether a pushed count comes from metadata is asked of
     * {@link CountStarPushDown} for the table {@code from} starts with (its hints' options applied).
     */
    private void assertCount(String from, long expected, Counted counted) {
        String query = "SELECT COUNT(*) FROM " + from;
        assertThat(explain(query)).as(query)
                .matches(p -> p.contains(PUSHED) == (counted != Counted.BY_FLINK), "pushed: " + counted);
        if (counted == Counted.METADATA || counted == Counted.BY_SOURCE) {
            assertThat(metadataCount(from)).as(query)
                    .isEqualTo(counted == Counted.METADATA ? OptionalLong.of(expected) : OptionalLong.empty());
        }
        assertThat(rows(query)).containsExactly("+I[" + expected + "]");
        String fromRows = "SELECT COUNT(*) FROM (SELECT * FROM " + from + " LIMIT 2147483647)";
        assertThat(explain(fromRows)).doesNotContain(PUSHED);
        assertThat(rows(fromRows)).containsExactly("+I[" + expected + "]");
    }

    /** {@link CountStarPushDown#fromMetadata} of a read of {@code "table"} or {@code "table /*+ OPTIONS('k' = 'v') *}{@code /"}. */
    private OptionalLong metadataCount(String from) {
        Matcher m = Pattern.compile("(\\w+)(?: /\\*\\+ OPTIONS\\('([^']+)' = '([^']+)'\\) \\*/)?").matcher(from);
        assertThat(m.matches()).as("a table with at most one option: %s", from).isTrue();
        PaimonSourceBuilder source = PaimonSourceBuilder.forTable(storage().getTable(Identifier.of("default", m.group(1))));
        if (m.group(2) != null) {
            source.option(m.group(2), m.group(3));
        }
        return CountStarPushDown.fromMetadata(source.build());
    }

    private String explain(String query) {
        return tEnv.explainSql(query);
    }
}
