package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.storage.catalog.Identifier;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.ObjectPath;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.Map;

/** The catalog factory: options, default database, table defaults, SPI registration. */
class FlinkCatalogFactoryITCase extends CatalogITCaseBase {

    @Override
    protected Map<String, String> catalogOptions() {
        return Map.of(
                "table-default.file.compression", "zstd",
                "table-default.snapshot.num-retained.min", "7",
                "s3.endpoint", "http://localhost:9000");
    }

    @Test
    void isFoundThroughServiceLoaderAndCreatesTheDefaultDatabase() {
        assertThat(tEnv.getCatalog(CATALOG)).get().isInstanceOf(FlinkCatalog.class);
        assertThat(rows("SHOW DATABASES")).containsExactly("+I[default]");
        assertThat(tEnv.getCurrentDatabase()).isEqualTo("default");
        assertThat(Files.isDirectory(warehouse.resolve("default.db"))).isTrue();
    }

    @Test
    void customDefaultDatabaseIsCreatedWhenTheCatalogOpens() {
        sql("CREATE CATALOG other WITH ('type' = 'paimon', 'warehouse' = '%s', 'default-database' = 'sales')",
                warehouseUri());
        tEnv.useCatalog("other");
        assertThat(tEnv.getCurrentDatabase()).isEqualTo("sales");
        assertThat(sortedRows("SHOW DATABASES")).containsExactly("+I[default]", "+I[sales]");
    }

    @Test
    void missingWarehouseIsNamed() {
        assertThatThrownBy(() -> tEnv.executeSql("CREATE CATALOG broken WITH ('type' = 'paimon')"))
                .hasStackTraceContaining("Cannot create catalog 'broken': option 'warehouse' is missing");
        assertThatThrownBy(() -> FlinkCatalogFactory.createFlinkCatalog("x", Map.of("warehouse", " ")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("option 'warehouse' is missing");
    }

    @Test
    void unsupportedWarehouseSchemeIsReported() {
        assertThatThrownBy(() -> FlinkCatalogFactory.createFlinkCatalog("x", Map.of("warehouse", "oss://b/wh")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Cannot create catalog 'x'")
                .hasMessageContaining("scheme 'oss' is not supported yet")
                .hasMessageContaining("s3, s3a");
    }

    @Test
    void anUnreachableHdfsIsReportedWithItsCause() {
        assertThatThrownBy(() -> FlinkCatalogFactory.createFlinkCatalog("x",
                Map.of("warehouse", "hdfs://no-such-namenode.invalid/wh")))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("Cannot create catalog 'x'")
                .hasMessageContaining("hdfs://no-such-namenode.invalid/wh")
                .hasMessageContaining("UnknownHostException");
    }

    @Test
    void tableDefaultsApplyUnlessTheTableSetsTheOption() throws Exception {
        sql("CREATE TABLE plain (a INT)");
        sql("CREATE TABLE own (a INT) WITH ('file.compression' = 'snappy', 'bucket' = '-1')");

        assertThat(storage().getTable(Identifier.of("default", "plain")).options())
                .containsOnly(Map.entry("file.compression", "zstd"), Map.entry("snapshot.num-retained.min", "7"));
        assertThat(storage().getTable(Identifier.of("default", "own")).options())
                .containsOnly(Map.entry("file.compression", "snappy"), Map.entry("snapshot.num-retained.min", "7"),
                        Map.entry("bucket", "-1"));
        Catalog catalog = tEnv.getCatalog(CATALOG).orElseThrow();
        assertThat(catalog.getTable(new ObjectPath("default", "plain")).getOptions())
                .containsEntry("file.compression", "zstd");
    }

    @Test
    void catalogOptionsAreNotTableOptions() throws Exception {
        sql("CREATE TABLE t (a INT)");
        assertThat(storage().getTable(Identifier.of("default", "t")).options())
                .doesNotContainKeys("s3.endpoint", "warehouse", "type");
    }
}
