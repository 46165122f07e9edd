package dev.streamhouse.flink.catalog;

import dev.streamhouse.flink.catalog.alter.SchemaChangeSpec;
import dev.streamhouse.storage.catalog.Identifier;

import org.apache.flink.table.catalog.exceptions.CatalogException;

import java.util.List;
import java.util.Map;

/**
 * Stand-in until the storage module can evolve schemas, rename tables and drop partitions: every
 * operation is refused with a message saying so (never silently ignored).
 */
final class UnavailableStorageEvolution implements StorageEvolution {

    @Override
    public void alterTable(Identifier table, List<SchemaChangeSpec> changes, boolean ignoreIfNotExists) {
        throw unavailable("alter table " + table + " (" + changes + ")", "schema evolution");
    }

    @Override
    public void renameTable(Identifier from, Identifier to, boolean ignoreIfNotExists) {
        throw unavailable("rename table " + from + " to " + to, "renaming tables");
    }

    @Override
    public void dropPartitions(Identifier table, List<Map<String, String>> partitions) {
        throw unavailable("drop partitions " + partitions + " of table " + table, "dropping partitions");
    }

    private static CatalogException unavailable(String what, String feature) {
        return new CatalogException("Cannot " + what + ": " + feature + " is not available in this build of the "
                + "storage module yet");
    }
}
