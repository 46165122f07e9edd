package dev.streamhouse.testing.hive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.LockComponentBuilder;
import org.apache.hadoop.hive.metastore.LockRequestBuilder;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.apache.hadoop.hive.metastore.api.LockRequest;
import org.apache.hadoop.hive.metastore.api.LockResponse;
import org.apache.hadoop.hive.metastore.api.LockState;
import org.apache.hadoop.hive.metastore.conf.MetastoreConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class HiveMetastoreExtensionTest {
    @RegisterExtension
    static final HiveMetastoreExtension METASTORE = new HiveMetastoreExtension();

    @TempDir
    Path dir;

    private HiveMetaStoreClient client() throws Exception {
        Configuration conf = MetastoreConf.newMetastoreConf();
        MetastoreConf.setVar(conf, MetastoreConf.ConfVars.THRIFT_URIS, METASTORE.uri());
        return new HiveMetaStoreClient(conf);
    }

    @Test
    void keepsDatabasesAndTheirParameters() throws Exception {
        try (HiveMetaStoreClient client = client()) {
            Database db = new Database("db1", "a database", dir.resolve("db1.db").toUri().toString(), Map.of("k", "v"));
            client.createDatabase(db);
            Database read = client.getDatabase("db1");
            assertEquals("a database", read.getDescription());
            assertEquals("v", read.getParameters().get("k"));
            assertTrue(client.getAllDatabases().contains("db1"), client.getAllDatabases().toString());
        }
    }

    @Test
    void exclusiveTableLocksQueue() throws Exception {
        try (HiveMetaStoreClient first = client(); HiveMetaStoreClient second = client()) {
            first.createDatabase(new Database("locks", "", dir.resolve("locks.db").toUri().toString(), Map.of()));
            LockResponse held = first.lock(tableLock("locks", "t"));
            assertEquals(LockState.ACQUIRED, held.getState(), METASTORE.logTail());
            LockResponse queued = second.lock(tableLock("locks", "t"));
            assertEquals(LockState.WAITING, queued.getState());
            first.unlock(held.getLockid());
            assertEquals(LockState.ACQUIRED, second.checkLock(queued.getLockid()).getState());
            second.unlock(queued.getLockid());
        }
    }

    @Test
    void resetDropsEveryDatabaseButDefaultAndEveryTableOfDefault() throws Exception {
        try (HiveMetaStoreClient client = client()) {
            client.createDatabase(new Database("gone", "", dir.resolve("gone.db").toUri().toString(), Map.of()));
            client.createTable(table("default", "t"));
            client.createTable(table("gone", "t"));
            METASTORE.reset();
            assertEquals(List.of("default"), client.getAllDatabases());
            assertEquals(List.of(), client.getAllTables("default"));
        }
    }

    private Table table(String db, String name) {
        StorageDescriptor sd = new StorageDescriptor();
        sd.setCols(List.of(new FieldSchema("id", "int", null)));
        sd.setLocation(dir.resolve(db + "-" + name).toUri().toString());
        sd.setInputFormat("org.apache.hadoop.mapred.TextInputFormat");
        sd.setOutputFormat("org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat");
        SerDeInfo serde = new SerDeInfo();
        serde.setSerializationLib("org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
        sd.setSerdeInfo(serde);
        Table table = new Table();
        table.setDbName(db);
        table.setTableName(name);
        table.setSd(sd);
        table.setTableType("MANAGED_TABLE");
        table.setPartitionKeys(List.of());
        return table;
    }

    private static LockRequest tableLock(String db, String table) {
        return new LockRequestBuilder()
                .addLockComponent(new LockComponentBuilder().setExclusive().setDbName(db).setTableName(table)
                        .setOperationType(org.apache.hadoop.hive.metastore.api.DataOperationType.NO_TXN).build())
                .setUser(System.getProperty("user.name"))
                .build();
    }
}
