package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * {@code CREATE CATALOG ... 'metastore' = 'jdbc'} in Flink SQL: databases and tables registered in the
 * database behind {@code uri} (a SQLite file here), shared by every catalog with the same {@code uri} and
 * {@code catalog-key}, and clear errors when the metastore cannot be used.
 */
class JdbcCatalogSqlITCase extends CatalogITCaseBase {
    private String uri() {
        return "jdbc:sqlite:" + warehouse.resolve("catalog.sqlite");
    }

    @Override
    protected Map<String, String> catalogOptions() {
        return Map.of("metastore", "jdbc", "uri", uri());
    }

    @Test
    void databasesAndTablesAreSharedByCatalogsOfTheSameKey() {
        sql("CREATE DATABASE sales");
        sql("CREATE TABLE sales.orders (id INT PRIMARY KEY NOT ENFORCED, amount INT) WITH ('bucket' = '1')");
        sql("INSERT INTO sales.orders VALUES (1, 10), (2, 20)");
        sql("ALTER TABLE sales.orders RENAME TO orders_v2");

        tEnv.executeSql("CREATE CATALOG same_key WITH ('type' = 'paimon', 'warehouse' = '" + warehouseUri()
                + "', 'metastore' = 'jdbc', 'uri' = '" + uri() + "')");
        assertThat(rows("SHOW DATABASES FROM same_key")).contains("+I[sales]");
        assertThat(rows("SHOW TABLES FROM same_key.sales")).containsExactly("+I[orders_v2]");
        assertThat(sortedRows("SELECT * FROM same_key.sales.orders_v2")).containsExactly("+I[1, 10]", "+I[2, 20]");

        tEnv.executeSql("CREATE CATALOG other_key WITH ('type' = 'paimon', 'warehouse' = '" + warehouseUri()
                + "', 'metastore' = 'jdbc', 'uri' = '" + uri() + "', 'catalog-key' = 'other')");
        assertThat(rows("SHOW DATABASES FROM other_key")).doesNotContain("+I[sales]");

        sql("DROP DATABASE sales CASCADE");
        assertThat(rows("SHOW DATABASES FROM same_key")).doesNotContain("+I[sales]");
    }

    @Test
    void aMetastoreThatCannotBeOpenedIsNamed() {
        String missing = "jdbc:sqlite:" + warehouse.resolve("no-such-dir/catalog.sqlite");
        assertThatThrownBy(() -> tEnv.executeSql("CREATE CATALOG broken WITH ('type' = 'paimon', 'warehouse' = '"
                + warehouseUri() + "', 'metastore' = 'jdbc', 'uri' = '" + missing + "')"))
                .hasStackTraceContaining("Cannot create catalog 'broken': Cannot open the JDBC metastore " + missing)
                // the root cause, which Flink's SQL client shows as the reason, names the metastore too
                .rootCause().hasMessageContaining("Cannot open the JDBC metastore " + missing)
                .hasMessageContaining("check 'uri'");
        assertThatThrownBy(() -> tEnv.executeSql("CREATE CATALOG no_driver WITH ('type' = 'paimon', 'warehouse' = '"
                + warehouseUri() + "', 'metastore' = 'jdbc', 'uri' = 'jdbc:postgresql://localhost/db')"))
                .hasStackTraceContaining("JDBC driver jar on the classpath");
        assertThatThrownBy(() -> tEnv.executeSql("CREATE CATALOG rest WITH ('type' = 'paimon', 'warehouse' = '"
                + warehouseUri() + "', 'metastore' = 'rest', 'uri' = 'http://localhost:8080')"))
                .hasStackTraceContaining("metastore")
                .hasStackTraceContaining("only the filesystem, jdbc and hive metastores are supported");
        assertThat(List.of(tEnv.listCatalogs())).doesNotContain("broken", "no_driver", "rest");
    }
}
