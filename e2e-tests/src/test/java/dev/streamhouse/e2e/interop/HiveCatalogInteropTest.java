package dev.streamhouse.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.e2e.oracle.TableSpec;
import dev.streamhouse.e2e.oracle.TestData;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.testing.hive.HiveMetastoreExtension;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One Hive metastore (a real one, thrift and Derby) and one warehouse shared by our catalog and Apache
 * Paimon 1.3.1's Hive catalog: both write the same record for the same table, each lists, reads and
 * writes the tables the other registered, and sees the other's schema changes, renames and drops.
 */
class HiveCatalogInteropTest {
    private static final String DB = "shared";

    @RegisterExtension
    static final HiveMetastoreExtension METASTORE = HiveMetastoreExtension.sharedPerJvm();

    @TempDir
    Path dir;

    private OurStore ours;
    private PaimonOracle paimon;
    private HiveMetaStoreClient client;

    @BeforeEach
    void open() throws Exception {
        Path warehouse = dir.resolve("warehouse");
        ours = new OurStore(warehouse, options());
        paimon = new PaimonOracle(warehouse.toAbsolutePath().toString(), options());
        Configuration conf = MetastoreConf.newMetastoreConf();
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, METASTORE.uri());
        client = new HiveMetaStoreClient(conf);
        assertThat(paimon.catalog()).isInstanceOf(org.apache.paimon.hive.HiveCatalog.class);
    }

    /** Both catalogs with the commit lock on, as on an object store: each takes the metastore's table lock. */
    private static Map<String, String> options() {
        return Map.of("metastore", "hive", "uri", METASTORE.uri(), "lock.enabled", "true");
    }

    @AfterEach
    void close() throws Exception {
        client.close();
        paimon.close();
        ours.close();
    }

    @Test
    void bothCatalogsWriteTheSameRecordForTheSameTable() throws Exception {
        ours.createDatabase(DB);
        ours.createTable(DB, "ours", TestData.allTypesTable());
        paimon.createTable(DB, "theirs", TestData.allTypesTable());

        Table ourRecord = client.getTable(DB, "ours");
        Table theirRecord = client.getTable(DB, "theirs");
        assertThat(ourRecord.getTableType()).isEqualTo(theirRecord.getTableType());
        assertThat(comparable(ourRecord.getParameters())).isEqualTo(comparable(theirRecord.getParameters()));
        assertThat(columns(ourRecord)).isEqualTo(columns(theirRecord));
        assertThat(ourRecord.getPartitionKeys()).isEqualTo(theirRecord.getPartitionKeys());
        assertThat(ourRecord.getSd().getInputFormat()).isEqualTo(theirRecord.getSd().getInputFormat());
        assertThat(ourRecord.getSd().getOutputFormat()).isEqualTo(theirRecord.getSd().getOutputFormat());
        assertThat(ourRecord.getSd().getSerdeInfo().getSerializationLib())
                .isEqualTo(theirRecord.getSd().getSerdeInfo().getSerializationLib());
        assertThat(ourRecord.getSd().getLocation()).isEqualTo(theirRecord.getSd().getLocation().replace("theirs", "ours"));
    }

    /** The parameters both write, without those the metastore stamps itself (times, statistics). */
    private static Map<String, String> comparable(Map<String, String> parameters) {
        Map<String, String> out = new HashMap<>(parameters);
        out.keySet().removeIf(k -> k.equals("transient_lastDdlTime") || k.startsWith("numFiles")
                || k.equals("totalSize") || k.equals("numFilesErasureCoded") || k.equals("bucketing_version"));
        return out;
    }

    private static List<String> columns(Table record) {
        return record.getSd().getCols().stream().map(c -> c.getName() + " " + c.getType())
                .collect(Collectors.toList());
    }

    @Test
    void partitionedTablesRegisterTheSamePartitionsInBothCatalogs() throws Exception {
        ours.createDatabase(DB);
        var spec = TableSpec.of("id", "INT NOT NULL", "v", "STRING", "dt", "STRING", "hr", "INT")
                .withPartitionKeys("dt", "hr").withOption("metastore.partitioned-table", "true");
        ours.createTable(DB, "ours", spec);
        paimon.createTable(DB, "theirs", spec);
        Table ourRecord = client.getTable(DB, "ours");
        Table theirRecord = client.getTable(DB, "theirs");
        assertThat(ourRecord.getPartitionKeys()).isEqualTo(theirRecord.getPartitionKeys()).hasSize(2);
        assertThat(columns(ourRecord)).isEqualTo(columns(theirRecord));

        ours.write(DB, "ours", partitionedRows(0, 12));
        paimon.write(DB, "theirs", partitionedRows(0, 12));
        List<String> ourPartitions = client.listPartitionNames(DB, "ours", (short) -1);
        assertThat(ourPartitions).hasSizeGreaterThan(5).isEqualTo(client.listPartitionNames(DB, "theirs", (short) -1));
        for (var partition : client.listPartitions(DB, "theirs", (short) -1)) {
            assertThat(client.getPartition(DB, "ours", partition.getValues()).getSd().getLocation())
                    .isEqualTo(partition.getSd().getLocation().replace("/theirs/", "/ours/"));
        }

        // each side's writes to the other's table register their partitions too
        paimon.write(DB, "ours", partitionedRows(12, 6));
        ours.write(DB, "theirs", partitionedRows(12, 6));
        assertThat(client.listPartitionNames(DB, "ours", (short) -1))
                .isEqualTo(client.listPartitionNames(DB, "theirs", (short) -1));
        Canon.assertSameRows(partitionedRows(0, 18), paimon.readAll(DB, "ours"));
    }

    @Test
    void tagsBecomeTheSamePartitionsInBothCatalogs() throws Exception {
        ours.createDatabase(DB);
        var spec = TableSpec.of("id", "INT NOT NULL", "v", "STRING").withOption("metastore.tag-to-partition", "tag");
        ours.createTable(DB, "ours", spec);
        paimon.createTable(DB, "theirs", spec);
        assertThat(client.getTable(DB, "ours").getPartitionKeys())
                .isEqualTo(client.getTable(DB, "theirs").getPartitionKeys());
        for (String table : List.of("ours", "theirs")) {
            ours.write(DB, table, List.of(CanonicalRow.of(1, "a")));
        }
        dev.streamhouse.storage.maintenance.tag.TableTags.of(ours.table(DB, "ours")).createFromLatest("2026-12-01");
        ((org.apache.paimon.table.FileStoreTable) paimon.table(DB, "theirs")).createTag("2026-12-01");
        assertThat(client.listPartitionNames(DB, "ours", (short) -1)).containsExactly("tag=2026-12-01")
                .isEqualTo(client.listPartitionNames(DB, "theirs", (short) -1));
        assertThat(client.getPartition(DB, "ours", List.of("2026-12-01")).getSd().getLocation())
                .isEqualTo(client.getPartition(DB, "theirs", List.of("2026-12-01")).getSd().getLocation()
                        .replace("/theirs/", "/ours/"));

        // our tag on Paimon's table becomes its partition, and Paimon's deletion of it removes it
        dev.streamhouse.storage.maintenance.tag.TableTags.of(ours.table(DB, "theirs")).createFromLatest("ours-tag");
        assertThat(client.listPartitionNames(DB, "theirs", (short) -1)).contains("tag=ours-tag");
        ((org.apache.paimon.table.FileStoreTable) paimon.table(DB, "theirs")).deleteTag("ours-tag");
        assertThat(client.listPartitionNames(DB, "theirs", (short) -1)).containsExactly("tag=2026-12-01");
    }

    /**
     * Rows over partitions (dt, hr), among them a NULL hour and an odd date. Not '' beside NULL: both are
     * the default partition name, and Paimon 1.3.1 then adds that metastore partition twice in one call,
     * which the metastore refuses (we register it once).
     */
    private static List<CanonicalRow> partitionedRows(int from, int count) {
        List<CanonicalRow> rows = new java.util.ArrayList<>();
        for (int i = from; i < from + count; i++) {
            String dt = i % 4 == 3 ? "2024/01 02" : "2024-01-0" + (i % 3);
            Integer hr = i % 5 == 4 ? null : i % 2;
            rows.add(CanonicalRow.of(i, "v" + i, dt, hr));
        }
        return rows;
    }

    @Test
    void paimonListsAndReadsWhatWeRegistered() throws Exception {
        ours.createDatabase(DB);
        ours.createTable(DB, "ours", TestData.allTypesTable());
        ours.write(DB, "ours", TestData.allTypesRows(0, 20));

        assertThat(paimon.catalog().listDatabases()).contains(DB);
        assertThat(paimon.catalog().listTables(DB)).containsExactly("ours");
        Canon.assertSameRows("Paimon reading our table through the shared metastore", TestData.allTypesRows(0, 20),
                paimon.readAll(DB, "ours"));

        paimon.write(DB, "ours", TestData.allTypesRows(20, 5));
        Canon.assertSameRows(TestData.allTypesRows(0, 25), ours.readAll(DB, "ours"));
    }

    @Test
    void weListAndReadWhatPaimonRegistered() throws Exception {
        paimon.createDatabase(DB);
        paimon.createTable(DB, "theirs", TestData.allTypesTable());
        paimon.write(DB, "theirs", TestData.allTypesRows(0, 20));

        assertThat(ours.catalog().listDatabases()).contains(DB);
        assertThat(ours.catalog().listTables(DB)).containsExactly("theirs");
        Canon.assertSameRows("our reading of Paimon's table through the shared metastore",
                TestData.allTypesRows(0, 20), ours.readAll(DB, "theirs"));
        ours.write(DB, "theirs", TestData.allTypesRows(20, 5));
        Canon.assertSameRows(TestData.allTypesRows(0, 25), paimon.readAll(DB, "theirs"));
    }

    @Test
    void schemaChangesRenamesAndDropsOfEachSideAreSeenByTheOther() throws Exception {
        ours.createDatabase(DB);
        ours.createTable(DB, "x", TestData.allTypesTable());
        ours.catalog().alterTable(Identifier.of(DB, "x"), List.of(SchemaChange.addColumn("extra", DataTypes.BIGINT())),
                false);
        assertThat(paimon.catalog().getTable(org.apache.paimon.catalog.Identifier.create(DB, "x")).rowType()
                .getFieldNames()).endsWith("extra");
        assertThat(client.getTable(DB, "x").getSd().getCols().stream().map(FieldSchema::getName)).endsWith("extra");
        paimon.catalog().alterTable(org.apache.paimon.catalog.Identifier.create(DB, "x"),
                org.apache.paimon.schema.SchemaChange.addColumn("more", org.apache.paimon.types.DataTypes.INT()), false);
        assertThat(ours.catalog().getTable(Identifier.of(DB, "x")).rowType().fieldNames()).endsWith("extra", "more");
        ours.catalog().dropTable(Identifier.of(DB, "x"), false);

        ours.createTable(DB, "a", TestData.allTypesTable());
        ours.write(DB, "a", TestData.allTypesRows(0, 10));

        ours.catalog().renameTable(Identifier.of(DB, "a"), Identifier.of(DB, "b"), false);
        assertThat(paimon.catalog().listTables(DB)).containsExactly("b");
        assertThat(paimon.readAll(DB, "b")).hasSize(10);

        paimon.catalog().renameTable(org.apache.paimon.catalog.Identifier.create(DB, "b"),
                org.apache.paimon.catalog.Identifier.create(DB, "c"), false);
        assertThat(ours.catalog().listTables(DB)).containsExactly("c");
        assertThat(ours.readAll(DB, "c")).hasSize(10);
        // Paimon keeps the directory where it was: we follow the record's location
        ours.write(DB, "c", TestData.allTypesRows(10, 5));
        assertThat(paimon.readAll(DB, "c")).hasSize(15);

        paimon.catalog().dropTable(org.apache.paimon.catalog.Identifier.create(DB, "c"), false);
        assertThat(ours.catalog().listTables(DB)).isEmpty();
        ours.createTable(DB, "d", TestData.allTypesTable());
        ours.catalog().dropTable(Identifier.of(DB, "d"), false);
        assertThat(paimon.catalog().listTables(DB)).isEmpty();

        paimon.catalog().dropDatabase(DB, false, true);
        assertThat(ours.catalog().listDatabases()).doesNotContain(DB);
    }
}
