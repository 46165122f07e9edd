package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * {@code t$table_health} and {@code CALL sys.table_health} on real tables built to trigger each check:
 * for every finding the test runs the exact recommendation it got back through Flink SQL and checks
 * that the finding is gone; a healthy table has none.
 */
class TableHealthITCase extends CatalogITCaseBase {

    /** The findings' columns as they come back, one string per row. */
    private List<String> findings(String table) {
        return sortedRows("SELECT severity, check_name, affected, measured, threshold FROM `%s$table_health`", table);
    }

    private List<String> checks(String table) {
        return strings("SELECT check_name FROM `%s$table_health`", table);
    }

    /** The first column of every row of a query, as strings. */
    private List<String> strings(String query, Object... args) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(String.format(query, args)).collect()) {
            it.forEachRemaining(r -> out.add(String.valueOf(r.getField(0))));
        } catch (Exception e) {
            throw new IllegalStateException("Query failed: " + query, e);
        }
        return out;
    }

    /** The recommendation of the (only) finding {@code check}. */
    private String recommendation(String table, String check) {
        List<String> r = strings("SELECT recommendation FROM `%s$table_health` WHERE check_name = '%s'", table, check);
        assertThat(r).as("findings %s of %s", check, table).hasSize(1);
        return r.get(0);
    }

    /** Runs the recommendation of {@code check} as it came back, and checks the finding is gone. */
    private String fix(String table, String check) {
        String statement = recommendation(table, check);
        rows(statement.replace("%", "%%"));
        assertThat(checks(table)).as("checks of %s after %s", table, statement).doesNotContain(check);
        return statement;
    }

    private void inserts(String table, int count, String rowsTemplate) {
        for (int i = 0; i < count; i++) {
            sql("INSERT INTO " + table + " VALUES " + rowsTemplate.replace("#", Integer.toString(i)));
        }
    }

    private static String values(int from, int to, String rowTemplate) {
        return IntStream.rangeClosed(from, to).mapToObj(i -> rowTemplate.replace("$", Integer.toString(i)))
                .collect(Collectors.joining(", "));
    }

    /** Writes ids {@code from..to} with random strings of {@code length} characters into {@code columns} of {@code table}. */
    private void randomRows(String table, int from, int to, int length) {
        sql("CREATE TEMPORARY TABLE IF NOT EXISTS gen_%d_%d (id INT, v STRING) WITH ('connector' = 'datagen',"
                + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '%d', 'fields.id.end' = '%d',"
                + " 'fields.v.length' = '%d', 'number-of-rows' = '%d')", from, to, from, to, length, to - from + 1);
        sql("INSERT INTO %s SELECT id, v FROM gen_%d_%d", table, from, to);
    }

    @Test
    void aHealthyTableHasNoFindings() {
        sql("CREATE TABLE pk (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                + " WITH ('bucket' = '2')");
        inserts("pk", 3, "(#, 'a', 'x'), (# + 10, 'b', 'y')");
        sql("CREATE TABLE logs (id INT, v STRING) WITH ('bucket' = '-1')");
        inserts("logs", 3, "(#, 'a')");

        assertThat(findings("pk")).isEmpty();
        assertThat(findings("logs")).isEmpty();
        assertThat(rows("CALL sys.table_health('default.pk')")).isEmpty();
        assertThat(rows("CALL sys.table_health(`table` => 'logs')")).isEmpty();
    }

    @Test
    void level0PileUpReachesTheTriggersAndACompactionFixesIt() {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                + " WITH ('bucket' = '1', 'write-only' = 'true', 'num-sorted-run.compaction-trigger' = '3',"
                + " 'num-sorted-run.stop-trigger' = '5')");
        inserts("t", 3, "(#, 'a', '2024-01-01'), (#, 'b', '2024-01-02')");
        sql("INSERT INTO t VALUES (7, 'c', '2024-01-02'), (8, 'c', '2024-01-02')");
        sql("INSERT INTO t VALUES (9, 'd', '2024-01-02')");

        assertThat(findings("t")).contains(
                "+I[HIGH, level0_files, partition=dt=2024-01-02, bucket=0, level=0, 5, 5]",
                "+I[MEDIUM, level0_files, partition=dt=2024-01-01, bucket=0, level=0, 3, 3]");
        assertThat(rows("CALL sys.table_health('default.t')")).anySatisfy(r -> assertThat(r)
                .startsWith("+I[HIGH, level0_files, partition=dt=2024-01-02, bucket=0, level=0, 5, 5, 5 level-0 files")
                .endsWith("CALL sys.compact(`table` => 'default.t', partitions => 'dt=2024-01-02')]"));

        List<String> before = sortedRows("SELECT * FROM t");
        String statement = strings("SELECT recommendation FROM `t$table_health` WHERE severity = 'HIGH'").get(0);
        rows(statement);
        assertThat(findings("t")).noneMatch(f -> f.contains("dt=2024-01-02") && f.contains("level0_files"));
        rows(strings("SELECT recommendation FROM `t$table_health` WHERE check_name = 'level0_files'").get(0));
        assertThat(checks("t")).doesNotContain("level0_files");
        assertThat(sortedRows("SELECT * FROM t")).isEqualTo(before);
    }

    @Test
    void largeLevel0FilesAreMeasuredAgainstTheWriteBuffer() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', 'write-only' = 'true')");
        randomRows("t", 1, 300, 72);
        assertThat(checks("t")).doesNotContain("large_level0_files");
        sql("ALTER TABLE t SET ('write-buffer-size' = '4 kb')");

        assertThat(findings("t")).anySatisfy(f -> assertThat(f).startsWith("+I[LOW, large_level0_files, bucket=0, level=0, ")
                .endsWith(", 4096]"));
        assertThat(fix("t", "large_level0_files")).isEqualTo("CALL sys.compact(`table` => 'default.t')");
        assertThat(sortedRows("SELECT level FROM `t$files`")).containsExactly("+I[5]");
    }

    @Test
    void sizeAmplificationComparesNewerRunsWithTheHighestLevel() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', 'write-only' = 'true')");
        sql("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
        rows("CALL sys.compact('default.t')");
        randomRows("t", 3, 400, 72);

        assertThat(findings("t")).anySatisfy(f -> assertThat(f).startsWith("+I[MEDIUM, size_amplification, bucket=0, ")
                .endsWith(", 200%]"));
        fix("t", "size_amplification");
        assertThat(strings("SELECT COUNT(*) FROM t")).containsExactly("400");
    }

    @Test
    void smallFilesOfAnAppendTableAreCountedAgainstCompactionMinFileNum() {
        sql("CREATE TABLE logs (id INT, v STRING) WITH ('bucket' = '-1', 'write-only' = 'true')");
        inserts("logs", 5, "(#, 'a'), (# + 100, 'b')");

        assertThat(findings("logs")).containsExactly("+I[MEDIUM, small_files, bucket=0, 5, 5]");
        assertThat(fix("logs", "small_files")).isEqualTo("CALL sys.compact(`table` => 'default.logs')");
        assertThat(findings("logs")).isEmpty();
        assertThat(strings("SELECT COUNT(*) FROM logs")).containsExactly("10");
    }

    @Test
    void deletedRowsAreRetractionsOverStoredRows() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', 'write-only' = 'true')");
        sql("INSERT INTO t VALUES " + values(1, 10, "($, 'v')"));
        sql("DELETE FROM t WHERE id <= 5");

        assertThat(strings("SELECT deleted_record_count FROM `t$levels` WHERE level = 0")).containsExactly("5");
        assertThat(findings("t")).contains("+I[MEDIUM, deleted_rows, bucket=0, 0.33, 0.20]");
        fix("t", "deleted_rows");
        assertThat(findings("t")).isEmpty();
        assertThat(strings("SELECT id FROM t")).containsExactlyInAnyOrder("6", "7", "8", "9", "10");
    }

    @Test
    void deletionVectorsCountAsDeletedRows() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1',"
                + " 'deletion-vectors.enabled' = 'true')");
        sql("INSERT INTO t VALUES " + values(1, 10, "($, 'v')"));
        sql("INSERT INTO t VALUES " + values(1, 6, "($, 'w')"));

        List<String> deleted = strings("SELECT SUM(deleted_record_count) FROM `t$levels`");
        assertThat(deleted).containsExactly("6");
        assertThat(findings("t")).contains("+I[MEDIUM, deleted_rows, bucket=0, 0.38, 0.20]");
        fix("t", "deleted_rows");
        assertThat(strings("SELECT SUM(deleted_record_count) FROM `t$levels`")).containsExactly("0");
        assertThat(sortedRows("SELECT v, COUNT(*) FROM t GROUP BY v")).containsExactly("+I[v, 4]", "+I[w, 6]");
    }

    @Test
    void dynamicBucketsAboveTheTargetRowNumber() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '-1')");
        sql("INSERT INTO t VALUES " + values(1, 30, "($, 'v')"));
        rows("CALL sys.compact('default.t')");
        assertThat(checks("t")).isEmpty();
        sql("ALTER TABLE t SET ('dynamic-bucket.target-row-num' = '10')");

        assertThat(checks("t")).contains("dynamic_bucket_overflow");
        String statement = recommendation("t", "dynamic_bucket_overflow");
        assertThat(statement).startsWith("ALTER TABLE `default`.`t` SET ('dynamic-bucket.target-row-num' = '");
        fix("t", "dynamic_bucket_overflow");
    }

    @Test
    void dynamicBucketsOverflowingWithVersionsNotCompactedAwayAreCompacted() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '-1', 'write-only' = 'true',"
                + " 'dynamic-bucket.target-row-num' = '10')");
        inserts("t", 3, "(1, 'v#'), (2, 'v#'), (3, 'v#'), (4, 'v#')");

        assertThat(findings("t")).contains("+I[MEDIUM, dynamic_bucket_overflow, bucket=0, 12, 10]");
        assertThat(fix("t", "dynamic_bucket_overflow")).isEqualTo("CALL sys.compact(`table` => 'default.t')");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[1, v2]", "+I[2, v2]", "+I[3, v2]", "+I[4, v2]");
    }

    @Test
    void totalFileCountAgainstStopTriggerAndTargetSize() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', 'write-only' = 'true')");
        inserts("t", 10, "(#, 'v')");

        assertThat(findings("t")).contains("+I[LOW, file_count, table, 10, 9]",
                "+I[HIGH, level0_files, bucket=0, level=0, 10, 8]");
        assertThat(fix("t", "file_count")).isEqualTo("CALL sys.compact(`table` => 'default.t')");
        assertThat(findings("t")).isEmpty();
    }

    @Test
    void aBucketHoldingVersionsNotCompactedAwayIsSkewed() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '4', 'write-only' = 'true',"
                + " 'target-file-size' = '16 kb', 'num-sorted-run.compaction-trigger' = '20')");
        sql("INSERT INTO t VALUES " + values(1, 8, "($, 'v')"));
        rows("CALL sys.compact('default.t')");
        inserts("t", 12, "(1, CONCAT(UUID(), UUID(), UUID(), UUID(), UUID(), UUID(), UUID(), UUID(), '#'))");

        assertThat(checks("t")).contains("bucket_skew");
        assertThat(fix("t", "bucket_skew")).isEqualTo("CALL sys.compact(`table` => 'default.t')");
        assertThat(strings("SELECT COUNT(*) FROM t")).containsExactly("8");
    }

    @Test
    void snapshotsBeyondTheRetainedMaximum() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', 'write-only' = 'true',"
                + " 'snapshot.num-retained.min' = '1', 'snapshot.num-retained.max' = '3',"
                + " 'num-sorted-run.compaction-trigger' = '10')");
        inserts("t", 5, "(#, 'v')");

        assertThat(findings("t")).containsExactly("+I[MEDIUM, snapshots_retained, table, 5, 3]");
        assertThat(fix("t", "snapshots_retained")).isEqualTo("CALL sys.expire_snapshots(`table` => 'default.t')");
        assertThat(strings("SELECT COUNT(*) FROM `t$snapshots`")).containsExactly("3");
    }

    @Test
    void longLivedChangelogsBeyondTheirMaximum() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1',"
                + " 'changelog-producer' = 'input', 'snapshot.num-retained.min' = '1', 'snapshot.num-retained.max' = '2',"
                + " 'changelog.num-retained.min' = '1', 'changelog.num-retained.max' = '10')");
        inserts("t", 6, "(#, 'v')");
        assertThat(checks("t")).doesNotContain("changelogs_retained");
        sql("ALTER TABLE t SET ('changelog.num-retained.max' = '3')");

        assertThat(checks("t")).contains("changelogs_retained");
        assertThat(fix("t", "changelogs_retained"))
                .isEqualTo("CALL sys.expire_changelogs(`table` => 'default.t', retain_max => 3)");
    }

    @Test
    void consumersPinningOldSnapshotsAndAbandonedConsumers() throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', 'write-only' = 'true',"
                + " 'snapshot.num-retained.min' = '1', 'snapshot.time-retained' = '1 ms',"
                + " 'num-sorted-run.compaction-trigger' = '10')");
        inserts("t", 4, "(#, 'v')");
        rows("CALL sys.reset_consumer(`table` => 'default.t', consumer_id => 'c1', next_snapshot_id => 1)");
        Thread.sleep(5);

        assertThat(findings("t")).contains("+I[MEDIUM, consumer_lag, consumer=c1, 4 snapshots, 1 snapshots]");
        assertThat(fix("t", "consumer_lag"))
                .isEqualTo("CALL sys.reset_consumer(`table` => 'default.t', consumer_id => 'c1')");

        rows("CALL sys.reset_consumer(`table` => 'default.t', consumer_id => 'c2', next_snapshot_id => 4)");
        sql("ALTER TABLE t SET ('consumer.expiration-time' = '1 ms')");
        Thread.sleep(20);
        assertThat(checks("t")).contains("consumer_expired");
        fix("t", "consumer_expired");
        fix("t", "snapshots_retained");
        assertThat(findings("t")).isEmpty();
    }

    @Test
    void partitionsPastTheirExpirationTime() {
        sql("CREATE TABLE t (id INT, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt) WITH ('bucket' = '1')");
        sql("INSERT INTO t VALUES (1, '2020-01-01'), (2, '2099-01-01')");
        sql("ALTER TABLE t SET ('partition.expiration-time' = '1 d', 'partition.timestamp-formatter' = 'yyyy-MM-dd')");

        assertThat(findings("t")).hasSize(1).allSatisfy(f -> assertThat(f)
                .startsWith("+I[MEDIUM, partition_expired, partition=dt=2020-01-01, ").endsWith(" bytes, 1 d]"));
        assertThat(fix("t", "partition_expired")).isEqualTo("CALL sys.expire_partitions(`table` => 'default.t')");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[2, 2099-01-01]");
    }

    @Test
    void tagsPastTheirRetentionAndBeyondTheirMaximum() throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')");
        inserts("t", 3, "(#, 'v')");
        rows("CALL sys.create_tag(`table` => 'default.t', tag => 'short', snapshot_id => 1, time_retained => '1 ms')");
        Thread.sleep(20);
        assertThat(findings("t")).hasSize(1).allSatisfy(f -> assertThat(f).startsWith("+I[LOW, tag_expired, tag=short, "));
        assertThat(fix("t", "tag_expired")).isEqualTo("CALL sys.expire_tags(`table` => 'default.t')");

        rows("CALL sys.create_tag(`table` => 'default.t', tag => 'a', snapshot_id => 1)");
        rows("CALL sys.create_tag(`table` => 'default.t', tag => 'b', snapshot_id => 2)");
        rows("CALL sys.create_tag(`table` => 'default.t', tag => 'c', snapshot_id => 3)");
        sql("ALTER TABLE t SET ('tag.num-retained-max' = '1')");
        assertThat(findings("t")).containsExactly("+I[LOW, tags_retained, table, 3, 1]");
        assertThat(fix("t", "tags_retained")).isEqualTo("CALL sys.delete_tag(`table` => 'default.t', tag => 'a,b')");
        assertThat(strings("SELECT tag_name FROM `t$tags`")).containsExactly("c");
    }

    @Test
    void largeTablesGetABloomFilterAdviceForKeyColumnsOutsideTheBucketKey() {
        sql("CREATE TABLE t (id INT, name STRING, PRIMARY KEY (id, name) NOT ENFORCED) WITH ('bucket' = '2',"
                + " 'bucket-key' = 'id', 'target-file-size' = '1 kb')");
        randomRows("t", 1, 400, 72);

        assertThat(findings("t")).anySatisfy(f -> assertThat(f).startsWith("+I[LOW, file_index, table, "));
        assertThat(fix("t", "file_index"))
                .isEqualTo("ALTER TABLE `default`.`t` SET ('file-index.bloom-filter.columns' = 'name')");
    }
}
