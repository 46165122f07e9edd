package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The merge engines through Flink SQL, with the seeds' flows: several streams partially updating one
 * wide table (with and without sequence groups), a running aggregation fed by a streaming GROUP BY
 * (whose -U rows the sink passes on so the sums retract), first-row deduplication; and the
 * statements each engine refuses, with messages that say why.
 */
class MergeEngineITCase extends CatalogITCaseBase {
    private static final int HANG_GUARD_SECONDS = 90;

    private TableEnvironment sEnv;

    @BeforeEach
    void createStreamingEnvironment() {
        sEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sEnv.getConfig().set("parallelism.default", "1");
        sEnv.getConfig().set("execution.checkpointing.interval", "200 ms");
        sEnv.executeSql(createCatalogStatement(Map.of()));
        sEnv.useCatalog(CATALOG);
    }

    /** Runs a bounded streaming statement to its end, failing instead of hanging. */
    private void stream(String statement) throws Exception {
        TableResult result = sEnv.executeSql(statement);
        result.await(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void severalStreamsWidenOneRowPerKey() throws Exception {
        sql("CREATE TABLE wide (id INT, name STRING, price INT, stock INT, PRIMARY KEY (id) NOT ENFORCED) "
                + "WITH ('merge-engine' = 'partial-update', 'bucket' = '2')");
        // Three sources, each knowing some columns, unioned into one writer (what Paimon recommends).
        stream("INSERT INTO wide "
                + "SELECT id, name, CAST(NULL AS INT), CAST(NULL AS INT) FROM (VALUES (1, 'apple'), (2, 'pear')) AS n(id, name) "
                + "UNION ALL SELECT id, CAST(NULL AS STRING), price, CAST(NULL AS INT) FROM (VALUES (1, 10), (3, 30)) AS p(id, price) "
                + "UNION ALL SELECT id, CAST(NULL AS STRING), CAST(NULL AS INT), stock FROM (VALUES (2, 5), (1, 7)) AS s(id, stock)");
        assertThat(sortedRows("SELECT * FROM wide")).containsExactly(
                "+I[1, apple, 10, 7]", "+I[2, pear, null, 5]", "+I[3, null, 30, null]");
        // A later job fills more columns; NULLs leave what is there.
        sql("INSERT INTO wide (id, price) VALUES (2, 20), (1, CAST(NULL AS INT))");
        assertThat(sortedRows("SELECT * FROM wide")).containsExactly(
                "+I[1, apple, 10, 7]", "+I[2, pear, 20, 5]", "+I[3, null, 30, null]");
        assertThat(sortedRows("SELECT id, stock FROM wide WHERE price > 15"))
                .containsExactly("+I[2, 5]", "+I[3, null]");
    }

    @Test
    void sequenceGroupsOrderEachStreamByItsOwnVersion() throws Exception {
        sql("CREATE TABLE orders (id INT, status STRING, status_ts INT, paid INT, pay_ts INT, "
                + "PRIMARY KEY (id) NOT ENFORCED) WITH ('merge-engine' = 'partial-update', "
                + "'fields.status_ts.sequence-group' = 'status', 'fields.pay_ts.sequence-group' = 'paid')");
        // Status events arrive out of order: the one with the larger status_ts wins, whenever it came.
        sql("INSERT INTO orders VALUES (1, 'shipped', 3, CAST(NULL AS INT), CAST(NULL AS INT))");
        sql("INSERT INTO orders VALUES (1, 'created', 1, CAST(NULL AS INT), CAST(NULL AS INT)), "
                + "(1, CAST(NULL AS STRING), CAST(NULL AS INT), 100, 2)");
        assertThat(rows("SELECT * FROM orders")).containsExactly("+I[1, shipped, 3, 100, 2]");
        // A newer payment event of the other group, which an older status event does not disturb.
        sql("INSERT INTO orders VALUES (1, 'paid?', 2, 120, 5)");
        assertThat(rows("SELECT * FROM orders")).containsExactly("+I[1, shipped, 3, 120, 5]");
        sql("CALL sys.compact('default.orders')");
        assertThat(rows("SELECT status, paid FROM orders")).containsExactly("+I[shipped, 120]");
    }

    @Test
    void aRunningAggregationFedByAStreamingGroupByRetractsWhatItReplaces() throws Exception {
        sql("CREATE TABLE metrics (k STRING, total BIGINT, biggest INT, names STRING, PRIMARY KEY (k) NOT ENFORCED) "
                + "WITH ('merge-engine' = 'aggregation', 'fields.total.aggregate-function' = 'sum', "
                + "'fields.biggest.aggregate-function' = 'max', 'fields.biggest.ignore-retract' = 'true', "
                + "'fields.names.aggregate-function' = 'listagg', 'fields.names.ignore-retract' = 'true', "
                + "'bucket' = '1')");
        // The GROUP BY emits +I(a, 1), -U(a, 1), +U(a, 3), -U(a, 3), +U(a, 7): with the -U rows the sum
        // retracts, so a's total is 7, not 1 + 3 + 7.
        stream("INSERT INTO metrics SELECT k, SUM(v), MAX(CAST(v AS INT)), MAX(n) FROM (VALUES ('a', CAST(1 AS BIGINT), 'x'), "
                + "('b', CAST(5 AS BIGINT), 'y'), ('a', CAST(2 AS BIGINT), 'x'), ('a', CAST(4 AS BIGINT), 'z')) AS t(k, v, n) "
                + "GROUP BY k");
        assertThat(sortedRows("SELECT k, total, biggest FROM metrics")).containsExactly("+I[a, 7, 4]", "+I[b, 5, 5]");
        // Later plain rows add to the running totals.
        sql("INSERT INTO metrics VALUES ('a', 10, 3, 'w'), ('c', 1, 1, 'v')");
        assertThat(sortedRows("SELECT k, total, biggest FROM metrics"))
                .containsExactly("+I[a, 17, 4]", "+I[b, 5, 5]", "+I[c, 1, 1]");
        sql("CALL sys.compact('default.metrics')");
        assertThat(sortedRows("SELECT k, total FROM metrics")).containsExactly("+I[a, 17]", "+I[b, 5]", "+I[c, 1]");
        assertThatThrownBy(() -> sql("UPDATE metrics SET total = 0 WHERE k = 'a'"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("merge engine 'aggregation' cannot apply a batch UPDATE"));
        assertThatThrownBy(() -> sql("DELETE FROM metrics WHERE k = 'a'"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("'aggregation.remove-record-on-delete' = 'true'"));
        assertThatThrownBy(() -> sql("CREATE TABLE bad (k STRING, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH "
                + "('merge-engine' = 'aggregation', 'fields.v.aggregate-function' = 'sum')"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e)).contains("'v'").contains("sum"));
    }

    @Test
    void aStreamingReadWithTheInputProducerReturnsTheInputRecords() throws Exception {
        sql("CREATE TABLE wide (id INT, name STRING, price INT, PRIMARY KEY (id) NOT ENFORCED) WITH "
                + "('merge-engine' = 'partial-update', 'changelog-producer' = 'input', 'bucket' = '1', "
                + "'continuous.discovery-interval' = '100 ms')");
        sql("INSERT INTO wide VALUES (1, 'apple', CAST(NULL AS INT))");
        sql("INSERT INTO wide VALUES (1, CAST(NULL AS STRING), 10)");
        java.util.concurrent.ExecutorService reader = java.util.concurrent.Executors.newSingleThreadExecutor();
        TableResult follow = sEnv.executeSql("SELECT * FROM wide /*+ OPTIONS('scan.mode' = 'from-snapshot', "
                + "'scan.snapshot-id' = '1') */");
        try (org.apache.flink.util.CloseableIterator<org.apache.flink.types.Row> it = follow.collect()) {
            java.util.List<String> rows = new java.util.ArrayList<>();
            reader.submit(() -> {
                while (rows.size() < 2 && it.hasNext()) {
                    rows.add(it.next().toString());
                }
            }).get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
            assertThat(rows).as("the input records, not the merged row").containsExactly(
                    "+I[1, apple, null]", "+I[1, null, 10]");
        } finally {
            follow.getJobClient().ifPresent(c -> c.cancel());
            reader.shutdownNow();
        }
        assertThat(rows("SELECT * FROM wide")).as("a batch read merges").containsExactly("+I[1, apple, 10]");
    }

    @Test
    void firstRowKeepsTheFirstArrivalOfEachKey() throws Exception {
        sql("CREATE TABLE firsts (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) "
                + "WITH ('merge-engine' = 'first-row', 'bucket' = '1')");
        sql("INSERT INTO firsts VALUES (1, 'one'), (2, 'two')");
        sql("INSERT INTO firsts VALUES (1, 'uno'), (3, 'tres')");
        stream("INSERT INTO firsts VALUES (2, 'dos'), (4, 'cuatro')");
        assertThat(sortedRows("SELECT * FROM firsts"))
                .containsExactly("+I[1, one]", "+I[2, two]", "+I[3, tres]", "+I[4, cuatro]");
        assertThat(rows("SELECT level FROM `firsts$files`")).as("nothing stays on level 0")
                .doesNotContain("+I[0]");
    }

    @Test
    void statementsAnEngineCannotServeAreRefusedSayingWhy() {
        sql("CREATE TABLE pu (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('merge-engine' = 'partial-update')");
        sql("CREATE TABLE fr (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('merge-engine' = 'first-row')");
        sql("INSERT INTO pu VALUES (1, 'a')");
        assertThatThrownBy(() -> sql("DELETE FROM pu WHERE id = 1"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("Cannot DELETE rows of table")
                        .contains("'partial-update.remove-record-on-delete' = 'true'"));
        assertThatThrownBy(() -> sql("UPDATE fr SET v = 'b' WHERE id = 1"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("merge engine 'first-row' cannot apply a batch UPDATE"));
        assertThatThrownBy(() -> sEnv.executeSql("SELECT * FROM pu").collect().close())
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("Cannot stream-read table")
                        .contains("'changelog-producer' = 'none'"));
        assertThatThrownBy(() -> sql("CREATE TABLE bad (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH "
                + "('merge-engine' = 'first-row', 'sequence.field' = 'v')"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("'sequence.field' cannot be used with 'merge-engine' = 'first-row'"));
        assertThatThrownBy(() -> sql("CREATE TABLE bad (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH "
                + "('merge-engine' = 'partial-update', 'fields.v.aggregate-function' = 'sum')"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("partial-update aggregates only columns of a sequence group"));
        assertThat(rows("SHOW TABLES")).doesNotContain("+I[bad]");
        // ALTER is checked the same way, and a refused ALTER changes nothing.
        sql("CREATE TABLE agg (id INT, v STRING, n INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('merge-engine' = 'aggregation')");
        assertThatThrownBy(() -> sql("ALTER TABLE agg SET ('fields.v.aggregate-function' = 'sum')"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("Cannot alter table").contains("'sum'").contains("'v'"));
        sql("ALTER TABLE agg SET ('fields.n.aggregate-function' = 'sum')");
        sql("INSERT INTO agg VALUES (1, 'a', 2), (1, 'b', 3)");
        assertThat(rows("SELECT * FROM agg")).containsExactly("+I[1, b, 5]");
    }

    @Test
    void aStreamedDeleteThatPartialUpdateCannotApplyFailsTheInsertWithItsCause() throws Exception {
        sql("CREATE TABLE pu (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('merge-engine' = 'partial-update', "
                + "'bucket' = '1')");
        // A streaming GROUP BY whose group stops passing HAVING retracts its row. Fail the job at once
        // instead of restarting it.
        sEnv.getConfig().set("restart-strategy.type", "none");
        assertThatThrownBy(() -> stream("INSERT INTO pu SELECT id, MAX(v) FROM (SELECT id, v FROM "
                + "(VALUES (1, 'x', 1), (1, 'y', 2)) AS t(id, v, n) WHERE n < 3) GROUP BY id HAVING COUNT(*) = 1"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("row to table default.pu")
                        .contains("Partial update cannot take delete records"));
        sql("CREATE TABLE pud (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH "
                + "('merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true', "
                + "'bucket' = '1')");
        sql("INSERT INTO pud VALUES (1, 'a'), (2, 'b')");
        sql("DELETE FROM pud WHERE id = 1");
        assertThat(rows("SELECT * FROM pud")).containsExactly("+I[2, b]");
    }
}
