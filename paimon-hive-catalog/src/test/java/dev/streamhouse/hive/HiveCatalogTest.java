package dev.streamhouse.hive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogException;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.testing.hive.HiveMetastoreExtension;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The hive metastore catalog against a real Hive metastore: records as Apache Paimon writes them, files in the warehouse. */
class HiveCatalogTest {
    @RegisterExtension
    static final HiveMetastoreExtension METASTORE = new HiveMetastoreExtension();

    @TempDir
    Path dir;

    private final List<Catalog> opened = new ArrayList<>();
    private IMetaStoreClient client;
    private String database;

    @BeforeEach
    void setUp() throws Exception {
        Configuration conf = MetastoreConf.newMetastoreConf();
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, METASTORE.uri());
        client = new HiveMetaStoreClient(conf);
        // one metastore serves the class: each test its own database
        database = "db" + Long.toHexString(System.nanoTime());
    }

    @AfterEach
    void close() {
        opened.forEach(Catalog::close);
        client.close();
    }

    private Catalog open(String... extra) {
        Options options = Options.of("warehouse", dir.resolve("warehouse").toString(), "metastore", "hive",
                "uri", METASTORE.uri());
        for (int i = 0; i < extra.length; i += 2) {
            options.set(extra[i], extra[i + 1]);
        }
        Catalog catalog = CatalogFactory.createCatalog(options);
        opened.add(catalog);
        return catalog;
    }

    private static Schema ordersSchema() {
        return Schema.newBuilder()
                .column("id", DataTypes.BIGINT(), "the order")
                .column("amount", DataTypes.DECIMAL(10, 2))
                .column("note", DataTypes.VARCHAR(10))
                .column("at", DataTypes.TIMESTAMP_LTZ(3))
                .column("tags", DataTypes.ARRAY(DataTypes.STRING()))
                .column("dt", DataTypes.STRING())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "2")
                .option("hive.custom", "kept")
                .comment("orders of the day")
                .build();
    }

    @Test
    void tablesAreRegisteredAsApachePaimonRegistersThem() throws Exception {
        Catalog catalog = open();
        catalog.createDatabase(database, false);
        Identifier orders = Identifier.of(database, "orders");
        catalog.createTable(orders, ordersSchema(), false);

        org.apache.hadoop.hive.metastore.api.Database db = client.getDatabase(database);
        assertThat(db.getLocationUri()).endsWith(dir.resolve("warehouse/" + database + ".db").toString());

        org.apache.hadoop.hive.metastore.api.Table record = client.getTable(database, "orders");
        assertThat(record.getTableType()).isEqualTo("MANAGED_TABLE");
        assertThat(record.getParameters())
                .containsEntry("table_type", "PAIMON")
                .containsEntry("storage_handler", "org.apache.paimon.hive.PaimonStorageHandler")
                .containsEntry("comment", "orders of the day")
                .containsEntry("bucket", "2")
                .containsEntry("hive.custom", "kept")
                .containsEntry("primary-key", "dt,id")
                .containsEntry("partition", "dt")
                .containsEntry("bucket-key", "id");
        StorageDescriptor sd = record.getSd();
        assertThat(sd.getInputFormat()).isEqualTo("org.apache.paimon.hive.mapred.PaimonInputFormat");
        assertThat(sd.getOutputFormat()).isEqualTo("org.apache.paimon.hive.mapred.PaimonOutputFormat");
        SerDeInfo serde = sd.getSerdeInfo();
        assertThat(serde.getSerializationLib()).isEqualTo("org.apache.paimon.hive.PaimonSerDe");
        assertThat(sd.getLocation()).endsWith(dir.resolve("warehouse/" + database + ".db/orders").toString());
        assertThat(sd.getCols().stream().map(c -> c.getName() + " " + c.getType()).collect(Collectors.toList()))
                .containsExactly("id bigint", "amount decimal(10,2)", "note varchar(10)",
                        "at timestamp with local time zone", "tags array<string>", "dt string");
        assertThat(sd.getCols().get(0).getComment()).isEqualTo("the order");
        assertThat(record.getPartitionKeys()).isEmpty();   // metastore.partitioned-table is false by default

        assertThat(catalog.listTables(database)).containsExactly("orders");
        Table table = catalog.getTable(orders);
        assertThat(table.primaryKeys()).containsExactly("dt", "id");
        assertThatThrownBy(() -> catalog.createTable(orders, ordersSchema(), false))
                .isInstanceOf(CatalogException.TableAlreadyExist.class);
        catalog.createTable(orders, ordersSchema(), true);

        // another catalog on the same metastore (and warehouse) sees and reads the same
        Catalog writer = open();
        Table simple = createSimple(writer, "simple");
        TestTables.write(simple, TestTables.rows(0, 6, 2));
        assertThat(TestTables.readAll(catalog.getTable(Identifier.of(database, "simple"))))
                .isEqualTo(TestTables.show(TestTables.rows(0, 6, 2)));
    }

    private Table createSimple(Catalog catalog, String name) {
        if (!catalog.databaseExists(database)) {
            catalog.createDatabase(database, false);
        }
        Identifier id = Identifier.of(database, name);
        catalog.createTable(id, TestTables.simpleSchema(), false);
        return catalog.getTable(id);
    }

    @Test
    void withoutSyncAllPropertiesOnlyHiveOptionsAreCopiedWithoutTheirPrefix() throws Exception {
        Catalog catalog = open("sync-all-properties", "false");
        catalog.createDatabase(database, false);
        catalog.createTable(Identifier.of(database, "orders"), ordersSchema(), false);
        Map<String, String> parameters = client.getTable(database, "orders").getParameters();
        assertThat(parameters).containsEntry("custom", "kept").containsEntry("table_type", "PAIMON")
                .doesNotContainKeys("bucket", "primary-key", "hive.custom");
    }

    @Test
    void schemaChangesReachTheRecord() throws Exception {
        Catalog catalog = open();
        catalog.createDatabase(database, false);
        Identifier orders = Identifier.of(database, "orders");
        catalog.createTable(orders, ordersSchema(), false);
        catalog.alterTable(orders, List.of(SchemaChange.addColumn("extra", DataTypes.INT()),
                SchemaChange.setOption("snapshot.num-retained.max", "70"),
                SchemaChange.removeOption("hive.custom")), false);

        org.apache.hadoop.hive.metastore.api.Table record = client.getTable(database, "orders");
        assertThat(record.getSd().getCols().stream().map(FieldSchema::getName)).endsWith("extra");
        assertThat(record.getParameters()).containsEntry("snapshot.num-retained.max", "70")
                .doesNotContainKey("hive.custom").containsEntry("table_type", "PAIMON");
        assertThat(catalog.getTable(orders).rowType().fieldCount()).isEqualTo(7);
    }

    @Test
    void renameAndDropKeepRecordsAndDirectoriesTogether() throws Exception {
        Catalog catalog = open();
        Table a = createSimple(catalog, "a");
        TestTables.write(a, TestTables.rows(0, 4, 2));
        Identifier b = Identifier.of(database, "b");
        catalog.renameTable(Identifier.of(database, "a"), b, false);
        assertThat(catalog.listTables(database)).containsExactly("b");
        assertThat(Files.exists(dir.resolve("warehouse/" + database + ".db/a"))).isFalse();
        assertThat(client.getTable(database, "b").getSd().getLocation())
                .endsWith(dir.resolve("warehouse/" + database + ".db/b").toString());
        assertThat(TestTables.readAll(catalog.getTable(b))).isEqualTo(TestTables.show(TestTables.rows(0, 4, 2)));

        createSimple(catalog, "a");
        assertThatThrownBy(() -> catalog.renameTable(Identifier.of(database, "a"), b, false))
                .isInstanceOf(CatalogException.TableAlreadyExist.class);

        catalog.dropTable(b, false);
        assertThat(catalog.listTables(database)).containsExactly("a");
        assertThat(client.tableExists(database, "b")).isFalse();
        assertThat(Files.exists(dir.resolve("warehouse/" + database + ".db/b"))).isFalse();
        assertThatThrownBy(() -> catalog.dropDatabase(database, false, false))
                .isInstanceOf(CatalogException.DatabaseNotEmpty.class);
        catalog.dropDatabase(database, false, true);
        assertThat(catalog.listDatabases()).doesNotContain(database);
        assertThat(Files.exists(dir.resolve("warehouse/" + database + ".db"))).isFalse();
    }

    @Test
    void hiveTablesThatAreNotPaimonTablesAreNeitherListedNorOpened() throws Exception {
        Catalog catalog = open();
        createSimple(catalog, "paimon");
        org.apache.hadoop.hive.metastore.api.Table hive = client.getTable(database, "paimon").deepCopy();
        hive.setTableName("plain");
        hive.getSd().setInputFormat("org.apache.hadoop.mapred.TextInputFormat");
        hive.getSd().setOutputFormat("org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat");
        hive.getSd().setLocation(dir.resolve("plain").toUri().toString());
        client.createTable(hive);

        assertThat(catalog.listTables(database)).containsExactly("paimon");
        assertThat(catalog.tableExists(Identifier.of(database, "plain"))).isFalse();
        assertThatThrownBy(() -> catalog.getTable(Identifier.of(database, "plain")))
                .hasMessageContaining("'" + database + ".plain' in the Hive metastore " + METASTORE.uri()
                        + " is not a Paimon table");
        assertThatThrownBy(() -> catalog.createTable(Identifier.of(database, "plain"), TestTables.simpleSchema(), true))
                .hasMessageContaining("not a Paimon table");
    }

    @Test
    void aRegisteredTableWithoutItsDirectoryIsNamedAndCanBeDropped() throws Exception {
        Catalog catalog = open();
        createSimple(catalog, "t");
        deleteRecursively(dir.resolve("warehouse/" + database + ".db/t"));
        Identifier t = Identifier.of(database, "t");
        assertThatThrownBy(() -> catalog.getTable(t))
                .hasMessageContaining("'" + database + ".t' is registered in the Hive metastore " + METASTORE.uri())
                .hasMessageContaining("DROP TABLE");
        catalog.dropTable(t, false);
        assertThat(catalog.listTables(database)).isEmpty();
    }

    @Test
    void partitionedTablesRegisterThePartitionsCommitsAddAndUnregisterThoseTheyDrop() throws Exception {
        Catalog catalog = open();
        catalog.createDatabase(database, false);
        Identifier id = Identifier.of(database, "p");
        catalog.createTable(id, TestTables.simpleSchema("metastore.partitioned-table", "true"), false);
        org.apache.hadoop.hive.metastore.api.Table record = client.getTable(database, "p");
        assertThat(record.getPartitionKeys().stream().map(k -> k.getName() + " " + k.getType()))
                .containsExactly("dt string");
        assertThat(record.getSd().getCols().stream().map(FieldSchema::getName)).containsExactly("id", "name");

        TestTables.write(catalog.getTable(id), TestTables.rows(0, 6, 3));
        assertThat(client.listPartitionNames(database, "p", (short) -1)).containsExactly("dt=d0", "dt=d1", "dt=d2");
        assertThat(client.getPartition(database, "p", List.of("d1")).getSd().getLocation())
                .endsWith(dir.resolve("warehouse/" + database + ".db/p/dt=d1").toString());
        // a second commit to known partitions, and one to a new partition
        TestTables.write(catalog.getTable(id), List.of(TestTables.row(10, "x", "d0"), TestTables.row(11, "y", "d9")));
        assertThat(client.listPartitionNames(database, "p", (short) -1)).containsExactly("dt=d0", "dt=d1", "dt=d2", "dt=d9");

        try (var commit = catalog.getTable(id).newBatchCommit()) {
            commit.dropPartitions(List.of(Map.of("dt", "d1")));
        }
        assertThat(client.listPartitionNames(database, "p", (short) -1)).containsExactly("dt=d0", "dt=d2", "dt=d9");
        try (var commit = catalog.getTable(id).newBatchCommit()) {
            commit.truncateTable();
        }
        assertThat(client.listPartitionNames(database, "p", (short) -1)).isEmpty();

        assertThatThrownBy(() -> catalog.alterTable(id,
                List.of(SchemaChange.setOption("metastore.partitioned-table", "false")), false))
                .hasMessageContaining("are fixed when the table is created");
        assertThat(catalog.getTable(id).options()).containsEntry("metastore.partitioned-table", "true");
    }

    @Test
    void withTagToPartitionTheTagsAreThePartitionsOfTheRecord() throws Exception {
        Catalog catalog = open();
        catalog.createDatabase(database, false);
        Identifier id = Identifier.of(database, "tagged");
        catalog.createTable(id, Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING())
                .option("metastore.tag-to-partition", "tag").build(), false);
        org.apache.hadoop.hive.metastore.api.Table record = client.getTable(database, "tagged");
        assertThat(record.getPartitionKeys().stream().map(k -> k.getName() + " " + k.getType()))
                .containsExactly("tag string");
        assertThat(record.getSd().getCols().stream().map(FieldSchema::getName)).containsExactly("id", "v");

        Table table = catalog.getTable(id);
        TestTables.write(table, List.of(dev.streamhouse.storage.data.GenericRow.of(1,
                dev.streamhouse.storage.data.BinaryString.fromString("a"))));
        var tags = dev.streamhouse.storage.maintenance.tag.TableTags.of(catalog.getTable(id));
        tags.createFromLatest("2026-12-01");
        tags.createFromLatest("before rename");
        assertThat(client.listPartitionNames(database, "tagged", (short) -1))
                .containsExactly("tag=2026-12-01", "tag=before rename");
        assertThat(client.getPartition(database, "tagged", List.of("2026-12-01")).getSd().getLocation())
                .endsWith(dir.resolve("warehouse/" + database + ".db/tagged/tag=2026-12-01").toString());

        tags.rename("before rename", "renamed");
        tags.delete(List.of("2026-12-01"));
        assertThat(client.listPartitionNames(database, "tagged", (short) -1)).containsExactly("tag=renamed");
    }

    @Test
    void tagsAsPartitionsOfAPartitionedTableOrAsPreviewsAreRefusedNotIgnored() {
        Catalog catalog = open();
        catalog.createDatabase(database, false);
        assertThatThrownBy(() -> catalog.createTable(Identifier.of(database, "p"),
                TestTables.simpleSchema("metastore.tag-to-partition", "tag"), false))
                .hasMessageContaining("'metastore.tag-to-partition' needs an unpartitioned table");
        assertThatThrownBy(() -> catalog.createTable(Identifier.of(database, "p"),
                Schema.newBuilder().column("id", DataTypes.INT()).option("metastore.tag-to-partition", "tag")
                        .option("metastore.tag-to-partition.preview", "process-time").build(), false))
                .hasMessageContaining("'metastore.tag-to-partition.preview' = 'process-time' is not supported yet");
        assertThat(catalog.listTables(database)).isEmpty();
        assertThat(Files.exists(dir.resolve("warehouse/" + database + ".db/p"))).isFalse();
    }

    @Test
    void theAddressMayComeFromTheHiveSiteOfHiveConfDir() throws Exception {
        Path conf = Files.createDirectories(dir.resolve("hive-conf"));
        Files.writeString(conf.resolve("hive-site.xml"), "<?xml version=\"1.0\"?>\n<configuration>\n"
                + "  <property><name>hive.metastore.uris</name><value>" + METASTORE.uri() + "</value></property>\n"
                + "</configuration>\n");
        try (Catalog catalog = CatalogFactory.createCatalog(Options.of("warehouse", dir.resolve("warehouse").toString(),
                "metastore", "hive", "hive-conf-dir", conf.toString()))) {
            catalog.createDatabase(database, false);
            assertThat(client.getDatabase(database).getName()).isEqualTo(database);
        }
        Path empty = Files.createDirectories(dir.resolve("empty-conf"));
        Files.writeString(empty.resolve("hive-site.xml"), "<?xml version=\"1.0\"?>\n<configuration/>\n");
        assertThatThrownBy(() -> CatalogFactory.createCatalog(Options.of("warehouse", dir.toString(),
                "metastore", "hive", "hive-conf-dir", empty.toString())))
                .hasMessageContaining("needs option 'uri'")
                .hasMessageContaining("sets no hive.metastore.uris");
    }

    @Test
    void anUnreachableMetastoreAndAWrongAddressAreNamed() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String nowhere = "thrift://127.0.0.1:" + port;
        assertThatThrownBy(() -> CatalogFactory.createCatalog(Options.of("warehouse", dir.toString(),
                "metastore", "hive", "uri", nowhere, "hive.metastore.connect.retries", "1")))
                .isInstanceOf(CatalogException.class)
                .hasMessageContaining("cannot connect to the Hive metastore " + nowhere)
                .hasMessageContaining("check 'uri'")
                // one line: the client's message carries a stack trace, which tools would take for the cause
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> CatalogFactory.createCatalog(Options.of("warehouse", dir.toString(),
                "metastore", "hive")))
                .hasMessageContaining("needs option 'uri'");
        assertThatThrownBy(() -> CatalogFactory.createCatalog(Options.of("warehouse", dir.toString(),
                "metastore", "hive", "uri", "http://x:9083")))
                .hasMessageContaining("needs a thrift:// address");
    }

    @Test
    void commitsTakeTheMetastoresTableLockAndAHeldLockTimesOutNamingTheMetastore() throws Exception {
        Catalog catalog = open("lock.enabled", "true", "lock-acquire-timeout", "1 s", "lock-check-max-sleep", "100 ms");
        Table t = createSimple(catalog, "t");
        TestTables.write(t, TestTables.rows(0, 2, 1));

        long held = client.lock(new org.apache.hadoop.hive.metastore.LockRequestBuilder()
                .addLockComponent(new org.apache.hadoop.hive.metastore.LockComponentBuilder().setExclusive()
                        .setDbName(database).setTableName("t")
                        .setOperationType(org.apache.hadoop.hive.metastore.api.DataOperationType.NO_TXN).build())
                .setUser("someone").build()).getLockid();
        try {
            assertThatThrownBy(() -> TestTables.write(catalog.getTable(Identifier.of(database, "t")),
                    TestTables.rows(2, 2, 1)))
                    .hasStackTraceContaining("Cannot take the commit lock of table '" + database + ".t' in the Hive "
                            + "metastore " + METASTORE.uri() + " within 'lock-acquire-timeout'");
        } finally {
            client.unlock(held);
        }
        TestTables.write(catalog.getTable(Identifier.of(database, "t")), TestTables.rows(2, 2, 1));
        assertThat(TestTables.readAll(catalog.getTable(Identifier.of(database, "t"))))
                .isEqualTo(TestTables.show(TestTables.rows(0, 4, 1)));
    }

    private static void deleteRecursively(Path path) throws IOException {
        try (Stream<Path> paths = Files.walk(path)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
