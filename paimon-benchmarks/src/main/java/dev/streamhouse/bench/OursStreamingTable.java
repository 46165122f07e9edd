package dev.streamhouse.bench;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;

import java.util.UUID;

/**
 * A filesystem catalog of streamhouse's storage API and one table in it with one streaming writer and
 * commit (one commit user), as the storage-level benchmark stores ({@link OursSnapshotStore}, {@link
 * OursFileCountStore}) use it.
 */
abstract class OursStreamingTable implements AutoCloseable {
    private Catalog catalog;
    protected Table table;
    protected TableWrite write;
    protected TableCommit commit;

    public void open(String warehouseUri) {
        catalog = CatalogFactory.createCatalog(Options.of("warehouse", warehouseUri));
    }

    /** Creates {@code database.name} afresh as {@code schema} and opens its writer and commit. */
    protected void create(String database, String name, Schema schema) throws Exception {
        closeWriter();
        catalog.createDatabase(database, true);
        Identifier id = Identifier.of(database, name);
        catalog.dropTable(id, true);
        catalog.createTable(id, schema, false);
        table = catalog.getTable(id);
        write = table.newWrite();
        commit = table.newStreamCommit(UUID.randomUUID().toString());
    }

    @Override
    public void close() throws Exception {
        closeWriter();
        if (catalog != null) {
            catalog.close();
        }
    }

    private void closeWriter() throws Exception {
        if (write != null) {
            write.close();
            write = null;
        }
        if (commit != null) {
            commit.close();
            commit = null;
        }
    }
}
