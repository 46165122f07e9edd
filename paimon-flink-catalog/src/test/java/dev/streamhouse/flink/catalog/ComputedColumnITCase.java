package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.schema.TableSchema;

import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Computed columns ({@code c AS expr}) are stored as the options Paimon's Flink catalog uses
 * ({@link ComputedColumnOptions}), come back at their positions, are evaluated by Flink on read, and
 * keep correct positions through {@code CREATE TABLE LIKE} and {@code ALTER TABLE}.
 */
class ComputedColumnITCase extends CatalogITCaseBase {
    private static final String EVENTS = "CREATE TABLE events (user_id BIGINT, event_time TIMESTAMP(3), "
            + "event_hour AS EXTRACT(HOUR FROM event_time), PRIMARY KEY (user_id) NOT ENFORCED)";
    private static final String MIXED = "CREATE TABLE t (a INT, c1 AS a + 1, b STRING, "
            + "c2 AS UPPER(b) COMMENT 'upper b')";

    private TableSchema stored(String table) {
        return storage().getTable(Identifier.of("default", table)).schema();
    }

    /** The stored options holding columns, sorted. */
    private Map<String, String> columnOptions(String table) {
        return stored(table).options().entrySet().stream()
                .filter(e -> e.getKey().startsWith("schema.") && !e.getKey().startsWith("schema.watermark."))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (x, y) -> x, TreeMap::new));
    }

    /** The columns as Flink resolves the table, e.g. {@code `c1` INT AS `a` + 1}. */
    private List<String> columns(String table) {
        return ((TableEnvironmentImpl) tEnv).getCatalogManager()
                .getTableOrError(ObjectIdentifier.of(CATALOG, "default", table))
                .getResolvedSchema().getColumns().stream().map(Column::toString).collect(Collectors.toList());
    }

    @Test
    void storedAsOptionsAndEvaluatedOnRead() throws Exception {
        sql(EVENTS);

        assertThat(stored("events").fieldNames()).containsExactly("user_id", "event_time");
        assertThat(columnOptions("events")).containsExactly(
                Map.entry("schema.2.data-type", "BIGINT"),
                Map.entry("schema.2.expr", "EXTRACT(HOUR FROM `event_time`)"),
                Map.entry("schema.2.name", "event_hour"));
        assertThat(tEnv.getCatalog(CATALOG).orElseThrow().getTable(new ObjectPath("default", "events")).getOptions())
                .as("the computed column is in the schema, not among the options")
                .doesNotContainKeys("schema.2.name", "schema.2.expr", "schema.2.data-type");

        sql("INSERT INTO events VALUES (1, TIMESTAMP '2026-01-01 13:05:00'), (2, TIMESTAMP '2026-01-01 07:00:00')");
        sql("INSERT INTO events (user_id, event_time) VALUES (3, TIMESTAMP '2026-01-02 13:59:59')");
        assertThat(sortedRows("SELECT * FROM events")).containsExactly(
                "+I[1, 2026-01-01T13:05, 13]", "+I[2, 2026-01-01T07:00, 7]", "+I[3, 2026-01-02T13:59:59, 13]");
        assertThat(sortedRows("SELECT user_id FROM events WHERE event_hour = 13")).containsExactly("+I[1]", "+I[3]");

        assertThat(rows("DESCRIBE events")).containsExactly(
                "+I[user_id, BIGINT, false, PRI(user_id), null, null]",
                "+I[event_time, TIMESTAMP(3), true, null, null, null]",
                "+I[event_hour, BIGINT, true, null, AS EXTRACT(HOUR FROM `event_time`), null]");
        assertThat(String.join("\n", rows("SHOW CREATE TABLE events")))
                .contains("  `event_time` TIMESTAMP(3),\n  `event_hour` AS EXTRACT(HOUR FROM `event_time`),\n");
    }

    @Test
    void severalComputedColumnsKeepTheirPositionsCommentsAndTheWatermark() {
        sql("CREATE TABLE t (c0 AS 7, a INT, c1 AS a + 1, b STRING, c2 AS UPPER(b) COMMENT 'upper b', "
                + "ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)");

        assertThat(stored("t").fieldNames()).containsExactly("a", "b", "ts");
        assertThat(columnOptions("t")).containsOnlyKeys(
                "schema.0.name", "schema.0.data-type", "schema.0.expr",
                "schema.2.name", "schema.2.data-type", "schema.2.expr",
                "schema.4.name", "schema.4.data-type", "schema.4.expr", "schema.4.comment");
        assertThat(columnOptions("t")).containsEntry("schema.0.data-type", "INT NOT NULL")
                .containsEntry("schema.4.comment", "upper b");
        assertThat(columns("t")).containsExactly(
                "`c0` INT NOT NULL AS 7", "`a` INT", "`c1` INT AS `a` + 1", "`b` STRING",
                "`c2` STRING AS UPPER(`b`) COMMENT 'upper b'", "`ts` TIMESTAMP(3)");
        assertThat(stored("t").options()).containsEntry("schema.watermark.0.rowtime", "ts");
    }

    @Test
    void createTableLikeKeepsComputedColumnsUnlessExcluded() {
        sql(MIXED);
        sql("CREATE TABLE copy_of LIKE t");
        sql("CREATE TABLE physical_only LIKE t (EXCLUDING GENERATED)");

        assertThat(columnOptions("copy_of")).isEqualTo(columnOptions("t"));
        assertThat(columns("copy_of")).isEqualTo(columns("t"));
        assertThat(columnOptions("physical_only")).isEmpty();
        assertThat(columns("physical_only")).containsExactly("`a` INT", "`b` STRING");
    }

    @Test
    void alterTableKeepsPositionsRight() {
        sql(MIXED);

        sql("ALTER TABLE t ADD e INT FIRST");
        assertThat(columns("t")).containsExactly("`e` INT", "`a` INT", "`c1` INT AS `a` + 1", "`b` STRING",
                "`c2` STRING AS UPPER(`b`) COMMENT 'upper b'");
        assertThat(columnOptions("t")).containsOnlyKeys("schema.2.name", "schema.2.data-type", "schema.2.expr",
                "schema.4.name", "schema.4.data-type", "schema.4.expr", "schema.4.comment");

        sql("ALTER TABLE t ADD (f INT AFTER a, c3 AS a * 10)");
        sql("ALTER TABLE t DROP e");
        sql("ALTER TABLE t RENAME c1 TO a_plus_one");
        sql("ALTER TABLE t MODIFY c2 AS LOWER(b) COMMENT 'lower b'");
        sql("ALTER TABLE t MODIFY a BIGINT");
        sql("ALTER TABLE t MODIFY b STRING AFTER a");
        sql("ALTER TABLE t DROP c3");
        assertThat(stored("t").fieldNames()).containsExactly("a", "b", "f");
        assertThat(columns("t")).containsExactly("`a` BIGINT", "`b` STRING", "`f` INT",
                "`a_plus_one` BIGINT AS `a` + 1", "`c2` STRING AS LOWER(`b`) COMMENT 'lower b'");
        assertThat(columnOptions("t")).containsOnlyKeys("schema.3.name", "schema.3.data-type", "schema.3.expr",
                "schema.4.name", "schema.4.data-type", "schema.4.expr", "schema.4.comment");

        sql("INSERT INTO t VALUES (1, 'Xy', 5)");
        assertThat(rows("SELECT * FROM t")).containsExactly("+I[1, Xy, 5, 2, xy]");
    }

    @Test
    void alterChangesWithoutAPlaceAmongPhysicalColumnsAreRefused() {
        sql(MIXED);
        sql("ALTER TABLE t ADD z STRING");
        Map<String, String> before = columnOptions("t");

        assertThatThrownBy(() -> sql("ALTER TABLE t ADD x INT AFTER c1"))
                .hasStackTraceContaining("Cannot alter table `paimon`.`default`.`t`: cannot place column 'x' AFTER "
                        + "computed column 'c1'");
        assertThatThrownBy(() -> sql("ALTER TABLE t MODIFY c1 INT"))
                .hasStackTraceContaining("cannot turn computed column 'c1' into the physical column");
        assertThatThrownBy(() -> sql("ALTER TABLE t MODIFY z AS CAST(a AS STRING)"))
                .hasStackTraceContaining("cannot turn physical column 'z' into the computed column");
        assertThatThrownBy(() -> sql("ALTER TABLE t SET ('schema.1.expr' = 'a + 2')"))
                .hasStackTraceContaining("option 'schema.1.expr' cannot be set: it holds a computed column");
        assertThat(columnOptions("t")).isEqualTo(before);
        assertThat(stored("t").fieldNames()).containsExactly("a", "b", "z");
    }

    @Test
    void createRefusesReservedOptionsAndKeysOnComputedColumns() {
        assertThatThrownBy(() -> sql("CREATE TABLE t (a INT, b INT) WITH ('schema.1.name' = 'x', "
                + "'schema.1.expr' = 'a + 1', 'schema.1.data-type' = 'INT')"))
                .hasStackTraceContaining("Cannot create table `paimon`.`default`.`t`: option 'schema.1.data-type' "
                        + "is reserved");
        assertThatThrownBy(() -> sql("CREATE TABLE t (a INT, c AS a + 1) PARTITIONED BY (c)"))
                .hasStackTraceContaining("Invalid partition key 'c'. A partition key must reference a physical "
                        + "column");
        assertThatThrownBy(() -> sql("CREATE TABLE t (a INT, c AS a + 1, PRIMARY KEY (c) NOT ENFORCED)"))
                .hasStackTraceContaining("A PRIMARY KEY constraint must be declared on physical columns");
        assertThat(rows("SHOW TABLES")).isEmpty();
    }

    @Test
    void invalidStoredOptionsFailGetTableNamingTableAndKey() {
        sql("CREATE TABLE t (a INT, b INT)");
        String table = "Cannot read table `paimon`.`default`.`t`: option ";
        assertUnreadable(Map.of("schema.1.name", "x", "schema.1.data-type", "INT"),
                table + "'schema.1.expr' is missing");
        assertUnreadable(Map.of("schema.3.name", "x", "schema.3.data-type", "INT", "schema.3.expr", "a"),
                table + "'schema.3.name' places computed column 'x' at position 3, but the table has only 3 columns");
        assertUnreadable(Map.of("schema.1.name", "b", "schema.1.data-type", "INT", "schema.1.expr", "a"),
                table + "'schema.1.name' names computed column 'b', but another column has that name");
        assertUnreadable(Map.of("schema.1.name", "x", "schema.1.data-type", "NOPE", "schema.1.expr", "a"),
                table + "'schema.1.data-type' holds 'NOPE', which is not a SQL type");
        assertUnreadable(Map.of("schema.01.name", "x"), table + "'schema.01.name' is not a computed column key");
        assertUnreadable(Map.of("schema.1.name", "m", "schema.1.data-type", "INT", "schema.1.metadata", "offset"),
                table + "'schema.1.metadata' declares a metadata column");
    }

    private void assertUnreadable(Map<String, String> options, String message) {
        Identifier id = Identifier.of("default", "t");
        storage().alterTable(id, options.entrySet().stream()
                .map(e -> (SchemaChange) new SchemaChange.SetOption(e.getKey(), e.getValue())).toList(), false);
        assertThatThrownBy(() -> tEnv.getCatalog(CATALOG).orElseThrow().getTable(new ObjectPath("default", "t")))
                .hasMessageContaining(message);
        storage().alterTable(id, options.keySet().stream()
                .map(k -> (SchemaChange) new SchemaChange.RemoveOption(k)).toList(), false);
    }
}
