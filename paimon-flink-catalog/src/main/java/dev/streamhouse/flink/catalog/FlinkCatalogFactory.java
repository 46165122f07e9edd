package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogException;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.options.CatalogOptions;
import dev.streamhouse.storage.options.FileSystemOptions;
import dev.streamhouse.storage.options.Options;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.ValidationException;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Creates {@link FlinkCatalog}s for {@code CREATE CATALOG c WITH ('type'='paimon', 'warehouse'=...)}.
 *
 * <p>Options: {@code warehouse} (required), {@code default-database} (default {@code default}, created
 * when the catalog opens), {@code disable-create-table-in-default-db}, {@code table-default.<key>}
 * (applied to every {@code CREATE TABLE} that does not set {@code <key>} itself). All options, these
 * included, are passed to the storage catalog, which checks them against every declared option
 * (invalid values and options not supported yet are refused; options without effect yet and unknown
 * keys are accepted with a warning, as Paimon accepts unknown keys). Flink's factory validation is not
 * used, because it refuses unknown keys.
 */
public final class FlinkCatalogFactory implements org.apache.flink.table.factories.CatalogFactory {
    /** The catalog type, {@code 'type'='paimon'}. */
    public static final String IDENTIFIER = CatalogTableOptions.PAIMON;

    /** How the storage catalog's refusals start; replaced by one naming the catalog. */
    private static final String STORAGE_PREFIX = "Cannot create catalog: ";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Collections.emptySet();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Collections.emptySet();
    }

    @Override
    public FlinkCatalog createCatalog(Context context) {
        return createFlinkCatalog(context.getName(),
                withS3Configuration(context.getOptions(), context.getConfiguration().toMap()));
    }

    /**
     * The catalog's options plus the {@code s3.*}, {@code s3a.*} and {@code fs.s3a.*} entries of Flink's
     * configuration (e.g. {@code s3.access-key} in the Flink configuration file) that the catalog does
     * not set itself.
     */
    static Map<String, String> withS3Configuration(Map<String, String> catalogOptions, Map<String, String> flinkConfiguration) {
        Map<String, String> options = new HashMap<>(catalogOptions);
        for (Map.Entry<String, String> e : flinkConfiguration.entrySet()) {
            if (FileSystemOptions.isS3Key(e.getKey())) {
                options.putIfAbsent(e.getKey(), e.getValue());
            }
        }
        return options;
    }

    /**
     * A catalog over the warehouse the options name, e.g. for DataStream programs.
     *
     * @throws ValidationException if {@code warehouse} is missing or blank
     */
    public static FlinkCatalog createFlinkCatalog(String name, Map<String, String> catalogOptions) {
        Map<String, String> options = new HashMap<>(catalogOptions);
        options.remove("type");
        String warehouse = options.get(CatalogOptions.WAREHOUSE.key());
        if (warehouse == null || warehouse.isBlank()) {
            throw new ValidationException("Cannot create catalog '" + name + "': option 'warehouse' is missing; "
                    + "set it to the warehouse root, e.g. 'warehouse'='file:///data/warehouse'");
        }
        String defaultDatabase = options.getOrDefault(
                CatalogOptions.DEFAULT_DATABASE.key(), CatalogOptions.DEFAULT_DATABASE.defaultValue());
        Catalog storage;
        try {
            storage = CatalogFactory.createCatalog(new Options(options));
        } catch (IllegalArgumentException | java.io.UncheckedIOException | CatalogException e) {
            String why = e.getMessage().startsWith(STORAGE_PREFIX) ? e.getMessage().substring(STORAGE_PREFIX.length())
                    : e.getMessage();
            throw new ValidationException("Cannot create catalog '" + name + "': " + why, e);
        }
        boolean noTablesInDefault = new Options(options).get(CatalogOptions.DISABLE_CREATE_TABLE_IN_DEFAULT_DB);
        return new FlinkCatalog(name, storage, defaultDatabase, FlinkCatalogOptions.tableDefaults(options),
                new CatalogStorageEvolution(storage), noTablesInDefault);
    }
}
