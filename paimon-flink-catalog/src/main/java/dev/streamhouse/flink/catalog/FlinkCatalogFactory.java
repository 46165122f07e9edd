package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
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
 * when the catalog opens), {@code table-default.<key>} (applied to every {@code CREATE TABLE} that does
 * not set {@code <key>} itself). All options, these included, are passed to the storage catalog, so
 * file system settings reach it unchanged. No option is rejected as unknown (Flink's factory
 * validation is not used) because file systems bring their own keys.
 */
public final class FlinkCatalogFactory implements org.apache.flink.table.factories.CatalogFactory {
    /** The catalog type, {@code 'type'='paimon'}. */
    public static final String IDENTIFIER = "paimon";

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
        return createFlinkCatalog(context.getName(), context.getOptions());
    }

    /**
     * A catalog over the warehouse the options name, e.g. for DataStream programs.
     *
     * @throws ValidationException if {@code warehouse} is missing or blank
     */
    public static FlinkCatalog createFlinkCatalog(String name, Map<String, String> catalogOptions) {
        Map<String, String> options = new HashMap<>(catalogOptions);
        options.remove("type");
        String warehouse = options.get(FlinkCatalogOptions.WAREHOUSE.key());
        if (warehouse == null || warehouse.isBlank()) {
            throw new ValidationException("Cannot create catalog '" + name + "': option 'warehouse' is missing; "
                    + "set it to the warehouse root, e.g. 'warehouse'='file:///data/warehouse'");
        }
        String defaultDatabase = options.getOrDefault(
                FlinkCatalogOptions.DEFAULT_DATABASE.key(), FlinkCatalogOptions.DEFAULT_DATABASE.defaultValue());
        Catalog storage;
        try {
            storage = CatalogFactory.createCatalog(new Options(options));
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            throw new ValidationException("Cannot create catalog '" + name + "': " + e.getMessage(), e);
        }
        return new FlinkCatalog(name, storage, defaultDatabase, FlinkCatalogOptions.tableDefaults(options),
                StorageEvolution.forCatalog(storage));
    }
}
