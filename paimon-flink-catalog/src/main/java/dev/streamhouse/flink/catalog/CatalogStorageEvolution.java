package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.table.sink.BatchTableCommit;

import java.util.List;
import java.util.Map;

/** {@link StorageEvolution} over a storage catalog: schema changes, renames and OVERWRITE commits. */
final class CatalogStorageEvolution implements StorageEvolution {
    private final Catalog catalog;

    CatalogStorageEvolution(Catalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public void alterTable(Identifier table, List<SchemaChange> changes, boolean ignoreIfNotExists) {
        catalog.alterTable(table, changes, ignoreIfNotExists);
    }

    @Override
    public void renameTable(Identifier from, Identifier to, boolean ignoreIfNotExists) {
        catalog.renameTable(from, to, ignoreIfNotExists);
    }

    @Override
    public void dropPartitions(Identifier table, List<Map<String, String>> partitions) {
        try (BatchTableCommit commit = catalog.getTable(table).newBatchCommit()) {
            commit.dropPartitions(partitions);
        }
    }
}
