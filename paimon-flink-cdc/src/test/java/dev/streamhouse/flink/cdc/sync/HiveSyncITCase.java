package dev.streamhouse.flink.cdc.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.streamhouse.flink.cdc.action.CdcActionsTesting;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.testing.hive.HiveMetastoreExtension;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database sync into a database of a real Hive metastore ({@code --catalog_conf metastore=hive}): the
 * tables it creates are registered there as Paimon tables, and the columns it adds reach their records.
 */
class HiveSyncITCase {
    @RegisterExtension
    static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final HiveMetastoreExtension METASTORE = new HiveMetastoreExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

    @TempDir
    Path dir;

    @Test
    void aDatabaseSyncRegistersItsTablesAndTheirNewColumnsInTheMetastore() throws Exception {
        MARIADB.execute("CREATE DATABASE hiveshop",
                "CREATE TABLE hiveshop.orders (id INT PRIMARY KEY, note VARCHAR(10))",
                "INSERT INTO hiveshop.orders VALUES (1, 'a'), (2, 'b')");
        List<String> args = new ArrayList<>(List.of("--warehouse", warehouse(), "--database", "ods",
                "--catalog_conf", "metastore=hive", "--catalog_conf", "uri=" + METASTORE.uri(),
                "--mysql_conf", "hostname=" + MARIADB.host(), "--mysql_conf", "port=" + MARIADB.port(),
                "--mysql_conf", "username=" + MariaDbExtension.CDC_USER,
                "--mysql_conf", "password=" + MariaDbExtension.CDC_PASSWORD,
                "--mysql_conf", "database-name=hiveshop", "--mysql_conf", "server-time-zone=UTC",
                "-D", "execution.checkpointing.interval=300ms", "-D", "parallelism.default=1"));
        JobClient job = CdcActionsTesting.submit("mysql_sync_database", args.toArray(new String[0]));
        try (HiveMetaStoreClient client = client()) {
            awaitRows("+I(1, a)", "+I(2, b)");
            assertThat(client.getAllTables("ods")).containsExactly("orders");
            assertThat(client.getTable("ods", "orders").getParameters()).containsEntry("table_type", "PAIMON")
                    .containsEntry("primary-key", "id");

            MARIADB.execute("UPDATE hiveshop.orders SET note = 'B' WHERE id = 2", "DELETE FROM hiveshop.orders WHERE id = 1",
                    "ALTER TABLE hiveshop.orders ADD COLUMN qty INT", "INSERT INTO hiveshop.orders VALUES (3, 'c', 7)");
            awaitRows("+I(2, B, null)", "+I(3, c, 7)");
            assertThat(client.getTable("ods", "orders").getSd().getCols().stream().map(FieldSchema::getName))
                    .containsExactly("id", "note", "qty");
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private String warehouse() {
        return dir.resolve("warehouse").toString();
    }

    private static HiveMetaStoreClient client() throws Exception {
        Configuration conf = MetastoreConf.newMetastoreConf();
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, METASTORE.uri());
        return new HiveMetaStoreClient(conf);
    }

    private void awaitRows(String... expected) {
        List<String> sorted = new ArrayList<>(List.of(expected));
        sorted.sort(null);
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(rows()).isEqualTo(sorted));
    }

    private List<String> rows() throws Exception {
        try (Catalog catalog = CatalogFactory.createCatalog(Options.of("warehouse", warehouse(),
                "metastore", "hive", "uri", METASTORE.uri()))) {
            Identifier id = Identifier.of("ods", "orders");
            if (!catalog.tableExists(id)) {
                return List.of("(no table yet)");
            }
            List<String> out = new ArrayList<>();
            for (String row : TestTables.readAll(catalog.getTable(id))) {
                out.add(row.replaceFirst("^[-+][IUD]", "+I"));
            }
            out.sort(null);
            return out;
        }
    }
}
