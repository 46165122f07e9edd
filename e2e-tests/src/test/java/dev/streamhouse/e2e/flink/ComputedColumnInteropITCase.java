package dev.streamhouse.e2e.flink;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.paimon.flink.FlinkCatalogFactory;
import org.apache.paimon.options.Options;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Computed columns are stored exactly as Apache Paimon 1.3.1's Flink catalog stores them: the same
 * {@code schema.N.*} options for the same DDL and the same ALTER TABLE statements, only physical
 * columns in the schema file, and each catalog rebuilds the other's computed columns (name, position,
 * expression, type). Both catalogs sit on one warehouse in one table environment, as in
 * {@link WatermarkInteropITCase}.
 */
class ComputedColumnInteropITCase {
    private static final String DDL = " (c0 AS 7, id BIGINT, a INT, c1 AS a + 1, b STRING, "
            + "c2 AS UPPER(b) COMMENT 'upper b', event_time TIMESTAMP(3), event_hour AS EXTRACT(HOUR FROM event_time), "
            + "WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND, PRIMARY KEY (id) NOT ENFORCED)";

    @TempDir
    Path warehouse;

    private TableEnvironment tEnv;

    @BeforeEach
    void open() {
        tEnv = TwoCatalogs.open(warehouse);
    }

    private void sql(String statement) throws Exception {
        tEnv.executeSql(statement).await();
    }

    /** Each column as the catalog's table resolves: position, name, type and, if computed, the expression. */
    private List<String> columns(String catalog, String table) {
        List<Column> columns = ((TableEnvironmentImpl) tEnv).getCatalogManager()
                .getTableOrError(ObjectIdentifier.of(catalog, "default", table))
                .getResolvedSchema().getColumns();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            out.add(i + " " + c.getName() + " " + c.getDataType().getLogicalType().asSerializableString()
                    + (c instanceof Column.ComputedColumn
                            ? " AS " + ((Column.ComputedColumn) c).getExpression().asSerializableString() : "")
                    + c.getComment().map(comment -> " COMMENT " + comment).orElse(""));
        }
        return out;
    }

    private org.apache.paimon.table.Table paimonTable(String table) throws Exception {
        try (org.apache.paimon.catalog.Catalog paimon = FlinkCatalogFactory.createPaimonCatalog(
                Options.fromMap(Map.of("warehouse", warehouse.toUri().toString())))) {
            return paimon.getTable(org.apache.paimon.catalog.Identifier.create("default", table));
        }
    }

    /** The table's stored {@code schema.*} options, as the storage sees them (Paimon's API). */
    private Map<String, String> schemaOptions(String table) throws Exception {
        Map<String, String> out = new TreeMap<>();
        paimonTable(table).options().forEach((k, v) -> {
            if (k.startsWith("schema.")) {
                out.put(k, v);
            }
        });
        return out;
    }

    @Test
    void bothCatalogsStoreTheSameOptionsAndOnlyPhysicalFields() throws Exception {
        sql("CREATE TABLE ours.`default`.o" + DDL);
        sql("CREATE TABLE theirs.`default`.p" + DDL);

        Map<String, String> ours = schemaOptions("o");
        assertThat(ours).containsEntry("schema.0.name", "c0")
                .containsEntry("schema.3.expr", "`a` + 1")
                .containsEntry("schema.5.comment", "upper b")
                .containsEntry("schema.7.data-type", "BIGINT")
                .containsKey("schema.watermark.0.rowtime");
        assertThat(ours).isEqualTo(schemaOptions("p"));
        for (String table : List.of("o", "p")) {
            assertThat(paimonTable(table).rowType().getFieldNames()).as(table)
                    .containsExactly("id", "a", "b", "event_time");
        }
    }

    @Test
    void eachCatalogRebuildsTheOthersComputedColumns() throws Exception {
        sql("CREATE TABLE ours.`default`.o" + DDL);
        sql("CREATE TABLE theirs.`default`.p" + DDL);

        List<String> expected = List.of(
                "0 c0 INT NOT NULL AS 7",
                "1 id BIGINT NOT NULL",
                "2 a INT",
                "3 c1 INT AS `a` + 1",
                "4 b VARCHAR(2147483647)",
                "5 c2 VARCHAR(2147483647) AS UPPER(`b`) COMMENT upper b",
                "6 event_time TIMESTAMP(3)",
                "7 event_hour BIGINT AS EXTRACT(HOUR FROM `event_time`)");
        assertThat(columns("ours", "p")).as("ours reading Paimon's table").isEqualTo(expected);
        assertThat(columns("theirs", "o")).as("Paimon reading our table").isEqualTo(expected);
        assertThat(columns("ours", "o")).isEqualTo(expected);
        assertThat(tEnv.getCatalog("ours").orElseThrow().getTable(new ObjectPath("default", "p")).getOptions())
                .as("our catalog shows the computed columns in the schema, not among the options")
                .doesNotContainKeys("schema.0.name", "schema.3.expr");
    }

    /**
     * The same statements through both catalogs. The table starts without column comments: Paimon moves
     * a computed column's keys but leaves its {@code schema.N.comment} behind (see the next test), which
     * ours does not copy.
     */
    @Test
    void alterTableStoresWhatPaimonStores() throws Exception {
        String ddl = " (a INT, c1 AS a + 1, b STRING, c2 AS UPPER(b))";
        sql("CREATE TABLE ours.`default`.o" + ddl);
        sql("CREATE TABLE theirs.`default`.p" + ddl);
        List<String> statements = List.of(
                " ADD e INT FIRST",
                " ADD (f INT AFTER a, c3 AS a * 10)",
                " DROP e",
                " RENAME c1 TO a_plus_one",
                " MODIFY c2 AS LOWER(b) COMMENT 'lower b'",
                " MODIFY a BIGINT",
                " MODIFY b STRING AFTER a",
                " DROP c3");
        for (String statement : statements) {
            sql("ALTER TABLE ours.`default`.o" + statement);
            sql("ALTER TABLE theirs.`default`.p" + statement);
            assertThat(schemaOptions("o")).as("after%s", statement).isEqualTo(schemaOptions("p"));
            assertThat(paimonTable("o").rowType().getFieldNames()).as("after%s", statement)
                    .isEqualTo(paimonTable("p").rowType().getFieldNames());
        }
        assertThat(columns("theirs", "o")).containsExactly(
                "0 a BIGINT", "1 b VARCHAR(2147483647)", "2 f INT", "3 a_plus_one BIGINT AS `a` + 1",
                "4 c2 VARCHAR(2147483647) AS LOWER(`b`) COMMENT lower b");
        assertThat(columns("ours", "p")).isEqualTo(columns("theirs", "o"));
    }

    @Test
    void oursReadsPaimonsTableAfterItMovedACommentedComputedColumn() throws Exception {
        sql("CREATE TABLE theirs.`default`.p (a INT, b STRING, c2 AS UPPER(b) COMMENT 'upper b')");
        sql("ALTER TABLE theirs.`default`.p ADD e INT FIRST");
        assertThat(schemaOptions("p")).as("Paimon's lone comment at the old position")
                .containsEntry("schema.2.comment", "upper b").doesNotContainKey("schema.2.name")
                .containsEntry("schema.3.name", "c2");

        List<String> expected = List.of("0 e INT", "1 a INT", "2 b VARCHAR(2147483647)",
                "3 c2 VARCHAR(2147483647) AS UPPER(`b`) COMMENT upper b");
        assertThat(columns("theirs", "p")).isEqualTo(expected);
        assertThat(columns("ours", "p")).isEqualTo(expected);
    }

    @Test
    void paimonsMetadataColumnsAreRefusedByKey() throws Exception {
        sql("CREATE TABLE theirs.`default`.p (a INT, m BIGINT METADATA FROM 'offset', c AS a + 1)");
        assertThat(schemaOptions("p")).containsEntry("schema.1.metadata", "offset")
                .containsEntry("schema.1.virtual", "false");

        assertThatThrownBy(() -> tEnv.getCatalog("ours").orElseThrow().getTable(new ObjectPath("default", "p")))
                .hasMessageContaining("Cannot read table `ours`.`default`.`p`: option 'schema.1.metadata' declares "
                        + "a metadata column");
    }
}
