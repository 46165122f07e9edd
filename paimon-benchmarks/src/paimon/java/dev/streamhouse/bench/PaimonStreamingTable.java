package dev.streamhouse.bench;

import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.StreamTableCommit;
import org.apache.paimon.table.sink.StreamTableWrite;
import org.apache.paimon.table.sink.StreamWriteBuilder;

/**
 * A filesystem catalog of Apache Paimon 1.3.1's Java API and one table in it with one streaming writer
 * and commit, as the storage-level benchmark stores ({@link PaimonSnapshotStore}, {@link
 * PaimonFileCountStore}) use it; the counterpart of {@link OursStreamingTable}. Compiled against
 * Paimon's jar in this module's Paimon-only source folder (src/paimon/java), on Paimon's classpath only.
 */
abstract class PaimonStreamingTable implements AutoCloseable {
    private Catalog catalog;
    protected Table table;
    protected StreamTableWrite write;
    protected StreamTableCommit commit;

    public void open(String warehouseUri) {
        Options options = new Options();
        options.set("warehouse", warehouseUri);
        catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    /** Creates {@code database.name} afresh as {@code schema} and opens its writer and commit. */
    protected void create(String database, String name, Schema schema) throws Exception {
        closeWriter();
        catalog.createDatabase(database, true);
        Identifier id = Identifier.create(database, name);
        catalog.dropTable(id, true);
        catalog.createTable(id, schema, false);
        table = catalog.getTable(id);
        StreamWriteBuilder builder = table.newStreamWriteBuilder();
        write = builder.newWrite();
        commit = builder.newCommit();
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
