package dev.streamhouse.flink.catalog;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.table.FileStoreTable;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Batch SQL against paimon tables: INSERT, SELECT with pushdown, OVERWRITE, UPDATE, DELETE, TRUNCATE, CTAS. */
class BatchSqlITCase extends CatalogITCaseBase {

    private FileStoreTable table(String name) {
        return (FileStoreTable) storage().getTable(Identifier.of("default", name));
    }

    @Test
    void insertAndSelectAPrimaryKeyTable() {
        sql("CREATE TABLE orders (id BIGINT, customer STRING, amount DECIMAL(10, 2), dt STRING, "
                + "PRIMARY KEY (dt, id) NOT ENFORCED) PARTITIONED BY (dt) WITH ('bucket' = '2')");
        sql("INSERT INTO orders VALUES (1, 'alice', 12.50, '2026-11-29'), (2, 'bob', 7.25, '2026-11-29'), "
                + "(3, 'carol', 1.00, '2026-11-30')");
        sql("INSERT INTO orders VALUES (1, 'alice', 99.99, '2026-11-29')");
        assertThat(sortedRows("SELECT * FROM orders")).containsExactly(
                "+I[1, alice, 99.99, 2026-11-29]", "+I[2, bob, 7.25, 2026-11-29]", "+I[3, carol, 1.00, 2026-11-30]");
        assertThat(sortedRows("SELECT customer FROM orders WHERE dt = '2026-11-30'")).containsExactly("+I[carol]");
        assertThat(sortedRows("SELECT id FROM orders WHERE amount > 10")).containsExactly("+I[1]");
        assertThat(rows("SELECT COUNT(*) FROM orders")).containsExactly("+I[3]");
        assertThat(rows("SELECT * FROM orders LIMIT 2")).hasSize(2);
        // Each INSERT is one snapshot; time travel reads the first.
        assertThat(table("orders").latestSnapshot().orElseThrow().id()).isEqualTo(2);
        assertThat(sortedRows("SELECT amount FROM orders /*+ OPTIONS('scan.snapshot-id'='1') */ WHERE id = 1"))
                .containsExactly("+I[12.50]");
    }

    @Test
    void timeTravelWithForSystemTimeAsOf() throws Exception {
        tEnv.getConfig().set("table.local-time-zone", "UTC");
        sql("CREATE TABLE t (id INT)");
        sql("INSERT INTO t VALUES (1)");
        long firstCommit = table("t").latestSnapshot().orElseThrow().timeMillis();
        Thread.sleep(20);
        sql("INSERT INTO t VALUES (2)");
        String asOf = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
                .format(java.time.Instant.ofEpochMilli(firstCommit).atZone(java.time.ZoneOffset.UTC));
        assertThat(sortedRows("SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '" + asOf + "'")).containsExactly("+I[1]");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[1]", "+I[2]");
    }

    @Test
    void partitionFiltersPruneSplits() {
        sql("CREATE TABLE t (id INT, dt STRING) PARTITIONED BY (dt)");
        sql("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'a')");
        String plan = tEnv.explainSql("SELECT id FROM t WHERE dt = 'a'");
        // The partition filter and the projection are pushed into the source and fully consumed.
        assertThat(plan).contains("filter=[=(dt").contains("project=[id]").doesNotContain("Calc(");
        assertThat(sortedRows("SELECT id FROM t WHERE dt = 'a'")).containsExactly("+I[1]", "+I[4]");
        var rb = table("t").newReadBuilder().withFilter(
                new dev.streamhouse.storage.predicate.PredicateBuilder(table("t").rowType()).equal(1, "a"));
        assertThat(rb.newScan().plan().splits()).hasSize(1);
    }

    @Test
    void insertOverwriteReplacesPartitions() {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING) PARTITIONED BY (dt)");
        sql("INSERT INTO t VALUES (1, 'x', 'a'), (2, 'y', 'b')");
        // Dynamic partition overwrite (default): only partition a is replaced.
        sql("INSERT OVERWRITE t VALUES (3, 'z', 'a')");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[2, y, b]", "+I[3, z, a]");
        assertThat(table("t").latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.OVERWRITE);
        // Static partition.
        sql("INSERT OVERWRITE t PARTITION (dt = 'b') SELECT 4, 'w'");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[3, z, a]", "+I[4, w, b]");
        // Whole table with dynamic-partition-overwrite off.
        sql("INSERT OVERWRITE t /*+ OPTIONS('dynamic-partition-overwrite'='false') */ VALUES (5, 'v', 'c')");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[5, v, c]");
    }

    /** Issue 33: INSERT at parallelism 1, then DELETE at 2, INSERT at 3 (two assigners), UPDATE at 2. */
    @Test
    void aDynamicBucketTableTakesStatementsAtAnyParallelism() {
        sql("CREATE TABLE dyn (id INT, v STRING, dt STRING, PRIMARY KEY (dt, id) NOT ENFORCED) PARTITIONED BY (dt) "
                + "WITH ('bucket' = '-1', 'dynamic-bucket.target-row-num' = '4', 'sink.parallelism' = '1')");
        java.util.Map<Integer, String> expected = new java.util.TreeMap<>();
        StringBuilder values = new StringBuilder();
        for (int id = 0; id < 40; id++) {
            values.append(id == 0 ? "" : ", ").append("(").append(id).append(", 'v").append(id).append("', '")
                    .append(id % 2 == 0 ? "a" : "b").append("')");
            expected.put(id, id + ", v" + id + ", " + (id % 2 == 0 ? "a" : "b"));
        }
        sql("INSERT INTO dyn VALUES " + values);

        sql("ALTER TABLE dyn SET ('sink.parallelism' = '2')");
        sql("DELETE FROM dyn WHERE id < 10");
        for (int id = 0; id < 10; id++) {
            expected.remove(id);
        }
        assertThat(contents("SELECT id, v, dt FROM dyn")).containsExactlyElementsOf(shown(expected));

        sql("ALTER TABLE dyn SET ('sink.parallelism' = '3', 'dynamic-bucket.assigner-parallelism' = '2')");
        values.setLength(0);
        for (int id = 5; id < 60; id += 5) {
            values.append(id == 5 ? "" : ", ").append("(").append(id).append(", 'w").append(id).append("', '")
                    .append(id % 2 == 0 ? "a" : "b").append("')");
            expected.put(id, id + ", w" + id + ", " + (id % 2 == 0 ? "a" : "b"));
        }
        sql("INSERT INTO dyn VALUES " + values);
        assertThat(contents("SELECT id, v, dt FROM dyn")).containsExactlyElementsOf(shown(expected));

        sql("ALTER TABLE dyn SET ('sink.parallelism' = '2')");
        sql("UPDATE dyn SET v = 'u' WHERE id >= 30");
        expected.replaceAll((id, row) -> id >= 30 ? id + ", u, " + (id % 2 == 0 ? "a" : "b") : row);
        assertThat(contents("SELECT id, v, dt FROM dyn")).containsExactlyElementsOf(shown(expected));
        assertThat(table("dyn").newReadBuilder().newScan().plan().splits().stream()
                .map(split -> split.partition() + "/" + split.bucket()).distinct().count())
                .as("buckets opened at several parallelisms").isGreaterThan(6);
    }

    private static java.util.List<String> shown(java.util.Map<Integer, String> rows) {
        return rows.values().stream().map(r -> "[" + r + "]").sorted().toList();
    }

    /** The rows of a query without their row kinds (updated rows merged on read are +U, as in Paimon), sorted. */
    private java.util.List<String> contents(String query) {
        return sortedRows(query).stream().map(r -> r.substring(r.indexOf('['))).sorted().toList();
    }

    @Test
    void updateDeleteAndTruncate() {
        sql("CREATE TABLE t (id INT, v STRING, n INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')");
        sql("INSERT INTO t VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)");
        sql("UPDATE t SET v = 'B', n = n + 1 WHERE id = 2");
        assertThat(sortedRows("SELECT * FROM t")).as("the updated key, merged on read, keeps its kind (as in Paimon)")
                .containsExactly("+I[1, a, 10]", "+I[3, c, 30]", "+U[2, B, 21]");
        sql("DELETE FROM t WHERE n > 20");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[1, a, 10]");
        sql("TRUNCATE TABLE t");
        assertThat(rows("SELECT * FROM t")).isEmpty();
        assertThatThrownBy(() -> sql("UPDATE t SET id = 5 WHERE id = 1")).hasStackTraceContaining("primary key");
    }

    @Test
    void rowLevelChangesNeedAPrimaryKey() {
        sql("CREATE TABLE log (id INT, v STRING)");
        sql("INSERT INTO log VALUES (1, 'a')");
        assertThatThrownBy(() -> sql("DELETE FROM log WHERE id = 1")).hasStackTraceContaining("primary-key table");
    }

    @Test
    void createTableAsSelect() {
        sql("CREATE TABLE src (id INT, v STRING)");
        sql("INSERT INTO src VALUES (1, 'a'), (2, 'b')");
        sql("CREATE TABLE copy WITH ('primary-key' = 'id', 'bucket' = '1') AS SELECT * FROM src");
        assertThat(table("copy").primaryKeys()).containsExactly("id");
        assertThat(sortedRows("SELECT * FROM copy")).containsExactly("+I[1, a]", "+I[2, b]");
    }

    @Test
    void alterTableEvolvesTheSchemaAndOldDataStaysReadable() {
        sql("CREATE TABLE t (id INT, v INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')");
        sql("INSERT INTO t VALUES (1, 10)");
        sql("ALTER TABLE t ADD note STRING");
        sql("ALTER TABLE t MODIFY v BIGINT");
        sql("ALTER TABLE t RENAME v TO amount");
        sql("INSERT INTO t VALUES (2, 20000000000, 'new')");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[1, 10, null]", "+I[2, 20000000000, new]");
        sql("ALTER TABLE t RENAME TO t2");
        assertThat(sortedRows("SELECT id FROM t2")).containsExactly("+I[1]", "+I[2]");
    }

    @Test
    void temporaryTableWithAPath() {
        String path = warehouseUri("standalone");
        sql("CREATE TEMPORARY TABLE tmp (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) "
                + "WITH ('connector' = 'paimon', 'path' = '" + path + "', 'bucket' = '1'" + fileSystemOptionsSql() + ")");
        sql("INSERT INTO tmp VALUES (1, 'a'), (1, 'b')");
        assertThat(rows("SELECT * FROM tmp")).containsExactly("+I[1, b]");
    }

    @Test
    void everyTypeRoundTripsThroughSql() {
        sql("CREATE TABLE all_types (b BOOLEAN, t TINYINT, s SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE, "
                + "d1 DECIMAL(9, 2), d2 DECIMAL(18, 4), d3 DECIMAL(38, 10), c CHAR(3), v VARCHAR(10), str STRING, "
                + "bin BINARY(2), vb VARBINARY(4), byt BYTES, dt DATE, tm TIME, ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), "
                + "ts9 TIMESTAMP(9), ltz TIMESTAMP_LTZ(3), arr ARRAY<INT>, m MAP<STRING, BIGINT>, "
                + "r ROW<x INT, y STRING>, ms MULTISET<STRING>)");
        sql("INSERT INTO all_types SELECT true, CAST(-1 AS TINYINT), CAST(300 AS SMALLINT), -7, 10000000000, "
                + "CAST(1.5 AS FLOAT), 2.25, 1234567.89, 12345678901234.5678, "
                + "CAST('1234567890123456789012345678.0123456789' AS DECIMAL(38, 10)), 'ab', 'varchar', 'été', "
                + "X'0102', X'0A0B0C', X'FF', DATE '1969-12-31', TIME '23:59:59', "
                + "TIMESTAMP '2026-11-29 10:11:12.123', TIMESTAMP '2026-11-29 10:11:12.123456', "
                + "TIMESTAMP '1960-01-01 00:00:00.123456789', TO_TIMESTAMP_LTZ(1700000000123, 3), "
                + "ARRAY[1, CAST(NULL AS INT), 3], MAP['k', 1, 'z', CAST(NULL AS BIGINT)], ROW(7, 'seven'), "
                + "(SELECT COLLECT(x) FROM (VALUES ('a'), ('a'), ('b')) AS v(x))");
        sql("INSERT INTO all_types (b) VALUES (CAST(NULL AS BOOLEAN))");
        List<String> rows = sortedRows("SELECT * FROM all_types");
        assertThat(rows).hasSize(2);
        assertThat(rows.get(1)).startsWith("+I[true, -1, 300, -7, 10000000000, 1.5, 2.25, 1234567.89, "
                + "12345678901234.5678, 1234567890123456789012345678.0123456789, ab , varchar, été, [1, 2], "
                + "[10, 11, 12], [-1], 1969-12-31, 23:59:59, 2026-11-29T10:11:12.123, 2026-11-29T10:11:12.123456, "
                + "1960-01-01T00:00:00.123456789, 2023-11-14T22:13:20.123Z, [1, null, 3], {");
        assertThat(rows.get(1)).contains("k=1").contains("z=null").endsWith("}, +I[7, seven], {a=2, b=1}]");
        assertThat(rows.get(0)).isEqualTo("+I[null, null, null, null, null, null, null, null, null, null, null, "
                + "null, null, null, null, null, null, null, null, null, null, null, null, null, null, null]");
    }

    @Test
    void systemTablesSeeWrites() {
        sql("CREATE TABLE t (id INT)");
        sql("INSERT INTO t VALUES (1)");
        sql("INSERT INTO t VALUES (2)");
        assertThat(sortedRows("SELECT snapshot_id, commit_kind, total_record_count FROM `t$snapshots`"))
                .containsExactly("+I[1, APPEND, 1]", "+I[2, APPEND, 2]");
        List<String> files = rows("SELECT record_count FROM `t$files`");
        assertThat(files).hasSize(2);
    }
}
