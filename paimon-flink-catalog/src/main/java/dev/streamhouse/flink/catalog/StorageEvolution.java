package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.catalog.Identifier;

import java.util.List;
import java.util.Map;

/**
 * The storage operations behind {@code ALTER TABLE}, {@code ALTER TABLE ... RENAME TO} and
 * {@code ALTER TABLE ... DROP PARTITION}. {@code FlinkCatalog} validates and translates the statement
 * (table exists, target name free, partitions exist) and then calls exactly one method here.
 *
 * <p>Errors: a refused change is an {@link IllegalArgumentException} or a storage
 * {@code CatalogException} whose message names the column, option or table; the catalog reports it
 * to the user unchanged.
 */
public interface StorageEvolution {

    /** Applies the changes as one new schema version, all or nothing. */
    void alterTable(Identifier table, List<SchemaChange> changes, boolean ignoreIfNotExists);

    /** Renames a table within its database. */
    void renameTable(Identifier from, Identifier to, boolean ignoreIfNotExists);

    /**
     * Drops whole partitions in one commit.
     *
     * @param partitions full partition specs (every partition key), as {@code FlinkCatalog.listPartitions} lists them
     */
    void dropPartitions(Identifier table, List<Map<String, String>> partitions);
}
