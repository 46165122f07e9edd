package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.flink.catalog.testutils.HiveMetastores;
import dev.streamhouse.testing.hive.HiveMetastoreExtension;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code CREATE CATALOG ... 'metastore' = 'hive'} in Flink SQL against a real Hive metastore: databases,
 * tables and (with {@code metastore.partitioned-table}) partitions registered there, visible to every
 * catalog on the same metastore, and clear errors when the metastore cannot be used.
 */
class HiveCatalogSqlITCase extends CatalogITCaseBase {
    @RegisterExtension
    static final HiveMetastoreExtension METASTORE = HiveMetastoreExtension.sharedPerJvm();

    @Override
    protected Map<String, String> catalogOptions() {
        return HiveMetastores.onHive(Map.of());
    }

    private HiveMetaStoreClient client() throws Exception {
        Configuration conf = MetastoreConf.newMetastoreConf();
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, METASTORE.uri());
        return new HiveMetaStoreClient(conf);
    }

    @Test
    void databasesTablesAndPartitionsAreRegisteredInTheMetastore() throws Exception {
        sql("CREATE DATABASE sales");
        sql("CREATE TABLE sales.orders (id INT, amount INT, dt STRING, PRIMARY KEY (dt, id) NOT ENFORCED) "
                + "PARTITIONED BY (dt) WITH ('bucket' = '1', 'metastore.partitioned-table' = 'true')");
        sql("INSERT INTO sales.orders VALUES (1, 10, '2024-01-01'), (2, 20, '2024-01-02')");
        try (HiveMetaStoreClient client = client()) {
            assertThat(client.getAllTables("sales")).containsExactly("orders");
            assertThat(client.getTable("sales", "orders").getParameters()).containsEntry("table_type", "PAIMON");
            assertThat(client.listPartitionNames("sales", "orders", (short) -1))
                    .containsExactly("dt=2024-01-01", "dt=2024-01-02");

            sql("ALTER TABLE sales.orders DROP PARTITION (dt = '2024-01-01')");
            assertThat(client.listPartitionNames("sales", "orders", (short) -1)).containsExactly("dt=2024-01-02");
        }

        // another catalog on the same metastore (its own warehouse option: tables are where their records say)
        tEnv.executeSql("CREATE CATALOG other WITH ('type' = 'paimon', 'warehouse' = '" + warehouseUri("other")
                + "', 'metastore' = 'hive', 'uri' = '" + METASTORE.uri() + "')");
        assertThat(rows("SHOW TABLES FROM other.sales")).containsExactly("+I[orders]");
        assertThat(sortedRows("SELECT * FROM other.sales.orders")).containsExactly("+I[2, 20, 2024-01-02]");

        sql("ALTER TABLE sales.orders RENAME TO orders_v2");
        assertThat(rows("SHOW TABLES FROM other.sales")).containsExactly("+I[orders_v2]");
        sql("DROP DATABASE sales CASCADE");
        assertThat(rows("SHOW DATABASES FROM other")).doesNotContain("+I[sales]");
    }

    @Test
    void anUnreachableMetastoreIsNamedAsTheRootCause() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String nowhere = "thrift://127.0.0.1:" + port;
        assertThatThrownBy(() -> tEnv.executeSql("CREATE CATALOG broken WITH ('type' = 'paimon', 'warehouse' = '"
                + warehouseUri() + "', 'metastore' = 'hive', 'uri' = '" + nowhere + "', "
                + "'hive.metastore.connect.retries' = '1')"))
                .hasStackTraceContaining("Cannot create catalog 'broken'")
                // the root cause, which Flink's SQL client shows as the reason, names the metastore too
                .rootCause().hasMessageContaining("cannot connect to the Hive metastore " + nowhere)
                .hasMessageContaining("check 'uri'");
        assertThat(List.of(tEnv.listCatalogs())).doesNotContain("broken");
    }

    @Test
    void tagsOfTheProceduresBecomePartitionsWithTagToPartition() throws Exception {
        sql("CREATE TABLE t (id INT) WITH ('metastore.tag-to-partition' = 'tag')");
        sql("INSERT INTO t VALUES (1)");
        sql("CALL sys.create_tag('default.t', 'v1')");
        sql("INSERT INTO t VALUES (2)");
        sql("CALL sys.create_tag('default.t', 'v2')");
        try (HiveMetaStoreClient client = client()) {
            assertThat(client.listPartitionNames("default", "t", (short) -1)).containsExactly("tag=v1", "tag=v2");
            sql("CALL sys.delete_tag('default.t', 'v1')");
            assertThat(client.listPartitionNames("default", "t", (short) -1)).containsExactly("tag=v2");
        }
        assertThatThrownBy(() -> sql("CREATE TABLE p (id INT, dt STRING) PARTITIONED BY (dt) "
                + "WITH ('metastore.tag-to-partition' = 'tag')"))
                .rootCause().hasMessageContaining("'metastore.tag-to-partition' needs an unpartitioned table");
        assertThat(rows("SHOW TABLES")).containsExactly("+I[t]");
    }
}
