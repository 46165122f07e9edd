package dev.streamhouse.flink.cdc.sql;

import dev.streamhouse.flink.cdc.sql.SyncStatement.CreateDatabaseAsDatabase;
import dev.streamhouse.flink.cdc.sql.SyncStatement.CreateTableAsTable;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SyncStatementParserTest {

    @Test
    void readsCreateTableAsTableWithEveryClause() {
        SyncStatement s = SyncStatementParser.parse("-- copy the orders\n"
                + "create table if not exists paimon.ods.`orders all` (\n"
                + "  CONSTRAINT pk PRIMARY KEY (id, `shop id`) NOT ENFORCED)\n"
                + "PARTITIONED BY (dt) WITH ('bucket' = '4', 'it''s' = 'x')\n"
                + "AS TABLE mysql.`shop_.*`.`orders_[0-9]+` /*+ OPTIONS('server-id' = '5400-5404') */;").orElseThrow();

        assertThat(s).isEqualTo(new CreateTableAsTable(true, List.of("paimon", "ods", "orders all"),
                List.of("id", "shop id"), List.of("dt"), Map.of("bucket", "4", "it's", "x"),
                List.of("mysql", "shop_.*", "orders_[0-9]+"), Map.of("server-id", "5400-5404")));
    }

    @Test
    void readsTheShortestCreateTableAsTable() {
        assertThat(SyncStatementParser.parse("CREATE TABLE t AS TABLE s")).contains(new CreateTableAsTable(false,
                List.of("t"), List.of(), List.of(), Map.of(), List.of("s"), Map.of()));
    }

    @Test
    void readsCreateDatabaseAsDatabase() {
        assertThat(SyncStatementParser.parse("CREATE DATABASE IF NOT EXISTS paimon.ods WITH ('bucket' = '2') "
                + "AS DATABASE mysql.shop INCLUDING TABLE 'orders|items' EXCLUDING TABLE 'tmp_.*' "
                + "/*+ OPTIONS('scan.startup.mode' = 'latest-offset') */"))
                .contains(new CreateDatabaseAsDatabase(true, List.of("paimon", "ods"), Map.of("bucket", "2"),
                        List.of("mysql", "shop"), "orders|items", "tmp_.*", Map.of("scan.startup.mode", "latest-offset")));
        assertThat(SyncStatementParser.parse("create database ods as database mysql.shop including all tables;"))
                .contains(new CreateDatabaseAsDatabase(false, List.of("ods"), Map.of(), List.of("mysql", "shop"), null,
                        null, Map.of()));
        // The hint may also follow the source's name.
        assertThat(SyncStatementParser.parse("CREATE DATABASE ods AS DATABASE mysql.shop /*+ OPTIONS('a' = 'b') */ "
                + "INCLUDING ALL TABLES")).map(SyncStatement::sourceOptions).contains(Map.of("a", "b"));
    }

    @Test
    void leavesEveryOtherStatementToFlink() {
        for (String sql : List.of("CREATE TABLE t AS SELECT * FROM s", "CREATE TABLE t (a INT) WITH ('x' = 'y')",
                "CREATE TABLE t WITH ('k' = 'AS TABLE') AS SELECT 1", "CREATE TABLE t (c AS TABLE) AS SELECT 1",
                "CREATE TEMPORARY TABLE t AS TABLE s", "CREATE DATABASE d", "CREATE DATABASE d AS TABLE s",
                "SELECT 'CREATE TABLE t AS TABLE s'", "INSERT INTO t SELECT * FROM s", "CREATE TABLE `unterminated",
                "")) {
            assertThat(SyncStatementParser.parse(sql)).as(sql).isEqualTo(Optional.empty());
        }
    }

    @Test
    void mistakesAndUnsupportedClausesAreNamed() {
        assertRefused("CREATE TABLE t (id INT) AS TABLE s",
                "Cannot parse CREATE TABLE ... AS TABLE: only a PRIMARY KEY constraint may be given in parentheses");
        assertRefused("CREATE TABLE t COMMENT 'c' AS TABLE s", "a table comment is not supported here yet");
        assertRefused("CREATE TABLE t AS TABLE s ADD COLUMN c AS 1", "ADD COLUMN (computed columns) is not supported yet");
        assertRefused("CREATE TABLE t WITH ('a' = 'b', 'a' = 'c') AS TABLE s", "option 'a' is given twice");
        assertRefused("CREATE TABLE t WITH (a = 'b') AS TABLE s", "expected an option key in quotes");
        assertRefused("CREATE TABLE t AS TABLE", "expected the source table's name ([catalog.][database.]table) "
                + "at the end of the statement");
        assertRefused("CREATE TABLE t AS TABLE a.b.c.d", "has 4 parts: a.b.c.d");
        assertRefused("CREATE TABLE t AS TABLE s /*+ LOOKUP('x' = 'y') */", "the only hint taken here is "
                + "/*+ OPTIONS('key' = 'value', ...) */, not /*+ LOOKUP('x' = 'y') */");
        assertRefused("CREATE TABLE t AS TABLE s extra", "expected the end of the statement at position 27, found extra");
        assertRefused("CREATE DATABASE d AS DATABASE s", "Cannot parse CREATE DATABASE ... AS DATABASE: expected "
                + "INCLUDING at the end of the statement");
        assertRefused("CREATE DATABASE d AS DATABASE s INCLUDING TABLE orders", "expected the regular expression of "
                + "the tables to include, in quotes at position 49, found orders");
        assertRefused("CREATE DATABASE d COMMENT 'x' AS DATABASE s INCLUDING ALL TABLES", "a database comment is not "
                + "supported here");
    }

    private static void assertRefused(String sql, String message) {
        assertThatThrownBy(() -> SyncStatementParser.parse(sql)).as(sql)
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }
}
