package dev.streamhouse.flink.catalog;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.util.HashMap;
import java.util.Map;

/**
 * Options of {@code CREATE CATALOG ... WITH ('type'='paimon', ...)}. Every other option is passed to
 * the storage catalog unchanged (file system settings such as {@code s3.*} or {@code hadoop.*}).
 */
public final class FlinkCatalogOptions {
    private FlinkCatalogOptions() {}

    public static final ConfigOption<String> WAREHOUSE =
            ConfigOptions.key("warehouse").stringType().noDefaultValue()
                    .withDescription("Root directory of the warehouse, e.g. 'file:///data/warehouse'. Required.");

    public static final ConfigOption<String> DEFAULT_DATABASE =
            ConfigOptions.key("default-database").stringType().defaultValue("default")
                    .withDescription("The catalog's default database; created when the catalog opens if missing.");

    /** Options starting with this prefix are default options of every table the catalog creates. */
    public static final String TABLE_DEFAULT_PREFIX = "table-default.";

    /** The {@code table-default.*} options of a catalog, with the prefix removed. */
    public static Map<String, String> tableDefaults(Map<String, String> catalogOptions) {
        Map<String, String> out = new HashMap<>();
        catalogOptions.forEach((k, v) -> {
            if (k.startsWith(TABLE_DEFAULT_PREFIX) && k.length() > TABLE_DEFAULT_PREFIX.length()) {
                out.put(k.substring(TABLE_DEFAULT_PREFIX.length()), v);
            }
        });
        return out;
    }
}
