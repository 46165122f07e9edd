package dev.streamhouse.storage.catalog;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileIOs;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.ManifestCache;
import dev.streamhouse.storage.options.CatalogOptions;
import dev.streamhouse.storage.options.InvalidOptionsException;
import dev.streamhouse.storage.options.OptionValidator;
import dev.streamhouse.storage.options.Options;

import dev.streamhouse.storage.catalog.jdbc.JdbcCatalogFactory;
import dev.streamhouse.storage.options.ConfigOption;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.io.UncheckedIOException;

/**
 * Opens a catalog from options: {@code warehouse} (required) and {@code metastore}: {@code filesystem} (the
 * default: the warehouse's directories are the catalog), {@code jdbc} ({@link JdbcCatalogFactory}) or one a
 * {@link MetastoreLoader} on the classpath serves ({@code hive}).
 */
public final class CatalogFactory {
    private CatalogFactory() {}

    /**
     * @throws dev.streamhouse.storage.options.InvalidOptionsException if an option is invalid or not
     *     supported yet ({@code table-default.*} options are checked as table options)
     */
    public static Catalog createCatalog(Options options) {
        try {
            OptionValidator.instance().checkCatalogOptions("Catalog", options.toMap());
        } catch (InvalidOptionsException e) {
            throw new InvalidOptionsException("Cannot create catalog", e.problems());
        }
        String warehouse = options.get(CatalogOptions.WAREHOUSE);
        if (warehouse == null || warehouse.isBlank()) {
            throw new IllegalArgumentException("Cannot create catalog: option 'warehouse' is missing; "
                    + "set it to the warehouse root, e.g. 'warehouse'='file:///data/warehouse'");
        }
        Path root = absolute(new Path(warehouse.trim()));
        FileIO fileIO;
        try {
            fileIO = FileIOs.forPath(root, options);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot create catalog: " + e.getMessage(), e);
        }
        try {
            fileIO.mkdirs(root);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create catalog: warehouse " + root + " cannot be created ("
                    + e.getMessage() + ")", e);
        }
        String metastore = options.get(CatalogOptions.METASTORE).trim().toLowerCase(java.util.Locale.ROOT);
        WarehouseTables tables = new WarehouseTables(fileIO, root, ManifestCache.fromCatalogOptions(options));
        if (metastore.equals("jdbc")) {
            return JdbcCatalogFactory.open(options, tables);
        }
        if (!metastore.equals("filesystem")) {
            return loader(metastore).open(options, tables);
        }
        refuseMetastoreSettings(options, metastore);
        return new FileSystemCatalog(tables);
    }

    private static MetastoreLoader loader(String metastore) {
        for (MetastoreLoader loader : ServiceLoader.load(MetastoreLoader.class, MetastoreLoader.class.getClassLoader())) {
            if (loader.metastore().equals(metastore)) {
                return loader;
            }
        }
        throw new IllegalArgumentException("Cannot create catalog: metastore '" + metastore + "' needs the "
                + "paimon-" + metastore + "-catalog jar on the classpath (the catalog bundle carries it)");
    }

    /** Settings only a metastore reads would be ignored by the filesystem catalog: refused instead. */
    private static void refuseMetastoreSettings(Options options, String metastore) {
        List<String> ignored = new ArrayList<>();
        for (ConfigOption<?> option : List.of(CatalogOptions.URI, CatalogOptions.CATALOG_KEY,
                CatalogOptions.CLIENT_POOL_SIZE)) {
            if (options.containsKey(option.key())) {
                ignored.add(option.key());
            }
        }
        options.toMap().keySet().stream().filter(k -> k.startsWith(JdbcCatalogFactory.JDBC_PREFIX)).forEach(ignored::add);
        if (options.get(CatalogOptions.LOCK_ENABLED) == Boolean.TRUE) {
            ignored.add(CatalogOptions.LOCK_ENABLED.key());
        }
        if (!ignored.isEmpty()) {
            throw new IllegalArgumentException("Cannot create catalog: option(s) " + ignored + " apply to a metastore "
                    + "such as 'jdbc' or 'hive', but 'metastore' is '" + metastore + "'; set 'metastore' or remove them");
        }
    }

    /** A relative local path resolved against the working directory. */
    static Path absolute(Path path) {
        if (path.scheme() == null && !path.path().startsWith("/")) {
            return new Path(java.nio.file.Paths.get(path.path()).toAbsolutePath().normalize().toString());
        }
        return path;
    }

}
