package dev.streamhouse.storage.catalog;

import dev.streamhouse.storage.options.Options;

/**
 * Opens a catalog kept by a metastore that lives in a module of its own (e.g. {@code hive}, in
 * paimon-hive-catalog, whose client libraries storage does not carry). Found with
 * {@link java.util.ServiceLoader}; {@link CatalogFactory} picks the loader whose {@link #metastore()} is the
 * catalog's {@code metastore} option.
 */
public interface MetastoreLoader {

    /** The value of the {@code metastore} option this loader serves, lower case. */
    String metastore();

    /**
     * Opens the catalog; its tables' directories are {@code tables}'.
     *
     * @throws IllegalArgumentException if an option is missing or invalid
     * @throws CatalogException if the metastore cannot be reached
     */
    Catalog open(Options options, WarehouseTables tables);
}
