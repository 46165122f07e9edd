package dev.streamhouse.flink.catalog;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.storage.catalog.Identifier;

import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.WatermarkSpec;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code WATERMARK FOR} in DDL is stored in the table (as the options Paimon's Flink catalog uses),
 * comes back in the table's schema, and can be added, changed and dropped with {@code ALTER TABLE}.
 */
class WatermarkDdlITCase extends CatalogITCaseBase {

    private Map<String, String> storedOptions(String table) throws Exception {
        return storage().getTable(Identifier.of("default", table)).options();
    }

    private List<WatermarkSpec> resolvedWatermarks(String table) {
        return ((org.apache.flink.table.api.internal.TableEnvironmentImpl) tEnv).getCatalogManager()
                .getTableOrError(org.apache.flink.table.catalog.ObjectIdentifier.of(CATALOG, "default", table))
                .getResolvedSchema().getWatermarkSpecs();
    }

    @Test
    void watermarkIsStoredAsOptionsAndComesBackInTheSchema() throws Exception {
        sql("CREATE TABLE t (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) "
                + "WITH ('bucket' = '1', 'bucket-key' = 'id')");

        Map<String, String> options = storedOptions("t");
        assertThat(options).containsEntry("schema.watermark.0.rowtime", "ts")
                .containsEntry("schema.watermark.0.strategy.data-type", "TIMESTAMP(3)")
                .containsKey("schema.watermark.0.strategy.expr");
        assertThat(options.get("schema.watermark.0.strategy.expr")).contains("`ts`").contains("INTERVAL");

        List<WatermarkSpec> specs = resolvedWatermarks("t");
        assertThat(specs).hasSize(1);
        assertThat(specs.get(0).getRowtimeAttribute()).isEqualTo("ts");
        CatalogBaseTable table = tEnv.getCatalog(CATALOG).orElseThrow().getTable(new ObjectPath("default", "t"));
        assertThat(table.getOptions()).as("the watermark is in the schema, not among the options")
                .doesNotContainKeys("schema.watermark.0.rowtime", "schema.watermark.0.strategy.expr")
                .containsEntry("bucket", "1");
        assertThat(String.join("\n", rows("SHOW CREATE TABLE t"))).contains("WATERMARK FOR `ts`");

        sql("INSERT INTO t VALUES (1, TIMESTAMP '2026-01-01 00:00:00')");
        assertThat(rows("SELECT id FROM t")).containsExactly("+I[1]");
    }

    @Test
    void alterTableAddsModifiesAndDropsTheWatermark() throws Exception {
        sql("CREATE TABLE t (id INT, ts TIMESTAMP(3))");
        assertThat(resolvedWatermarks("t")).isEmpty();

        sql("ALTER TABLE t ADD WATERMARK FOR ts AS ts");
        assertThat(storedOptions("t")).containsEntry("schema.watermark.0.strategy.expr", "`ts`");
        assertThat(resolvedWatermarks("t")).hasSize(1);

        sql("ALTER TABLE t MODIFY WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE");
        assertThat(storedOptions("t").get("schema.watermark.0.strategy.expr")).contains("INTERVAL");

        sql("ALTER TABLE t DROP WATERMARK");
        assertThat(storedOptions("t")).doesNotContainKeys("schema.watermark.0.rowtime",
                "schema.watermark.0.strategy.expr", "schema.watermark.0.strategy.data-type");
        assertThat(resolvedWatermarks("t")).isEmpty();
    }

    @Test
    void createTableLikeCopiesTheWatermark() throws Exception {
        sql("CREATE TABLE src (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '2' SECOND)");
        sql("CREATE TABLE copy_of LIKE src");
        assertThat(storedOptions("copy_of")).containsEntry("schema.watermark.0.rowtime", "ts");
        assertThat(resolvedWatermarks("copy_of")).hasSize(1);
    }
}
