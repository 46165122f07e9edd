package dev.streamhouse.flink.cdc.sync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.streamhouse.flink.cdc.action.CdcActionsTesting;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.fs.s3.S3ProxyExtension;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.testutils.TestTables;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A database sync into an {@code s3://} warehouse, with the S3 settings given as {@code --catalog_conf}. */
class S3SyncITCase {
    @RegisterExtension
    static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final S3ProxyExtension S3 = new S3ProxyExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

    private static final String WAREHOUSE = "sync-warehouse";

    @Test
    void aDatabaseSyncWritesAnS3WarehouseAndFollowsChangesAndNewColumns() throws Exception {
        MARIADB.execute("CREATE DATABASE s3shop",
                "CREATE TABLE s3shop.orders (id INT PRIMARY KEY, note VARCHAR(10))",
                "INSERT INTO s3shop.orders VALUES (1, 'a'), (2, 'b')");
        List<String> args = new ArrayList<>(List.of("--warehouse", S3.uri(WAREHOUSE), "--database", "ods",
                "--mysql_conf", "hostname=" + MARIADB.host(), "--mysql_conf", "port=" + MARIADB.port(),
                "--mysql_conf", "username=" + MariaDbExtension.CDC_USER,
                "--mysql_conf", "password=" + MariaDbExtension.CDC_PASSWORD,
                "--mysql_conf", "database-name=s3shop", "--mysql_conf", "server-time-zone=UTC",
                "-D", "execution.checkpointing.interval=300ms", "-D", "parallelism.default=1"));
        for (Map.Entry<String, String> e : S3.s3Options().entrySet()) {
            args.add("--catalog_conf");
            args.add(e.getKey() + "=" + e.getValue());
        }
        JobClient job = CdcActionsTesting.submit("mysql_sync_database", args.toArray(new String[0]));
        try {
            awaitRows("+I(1, a)", "+I(2, b)");
            MARIADB.execute("UPDATE s3shop.orders SET note = 'B' WHERE id = 2", "DELETE FROM s3shop.orders WHERE id = 1",
                    "ALTER TABLE s3shop.orders ADD COLUMN qty INT", "INSERT INTO s3shop.orders VALUES (3, 'c', 7)");
            awaitRows("+I(2, B, null)", "+I(3, c, 7)");
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static void awaitRows(String... expected) {
        List<String> sorted = new ArrayList<>(List.of(expected));
        sorted.sort(null);
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(rows()).isEqualTo(sorted));
    }

    private static List<String> rows() throws Exception {
        Map<String, String> options = new java.util.HashMap<>(S3.catalogOptions(WAREHOUSE));
        try (Catalog catalog = CatalogFactory.createCatalog(new Options(options))) {
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
