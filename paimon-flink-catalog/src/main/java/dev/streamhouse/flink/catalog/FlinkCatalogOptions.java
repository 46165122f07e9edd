package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.options.ConfigOption;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Options of {@code CREATE CATALOG ... WITH ('type'='paimon', ...)} that only the Flink catalog reads;
 * the storage catalog's ({@code warehouse}, {@code default-database}, {@code table-default.*}, file
 * system settings, ...) are in {@link dev.streamhouse.storage.options.CatalogOptions}. Every option is
 * checked by the storage catalog against all declarations when the catalog is created.
 */
public final class FlinkCatalogOptions {
    private FlinkCatalogOptions() {}

    public static final ConfigOption<Boolean> LOG_SYSTEM_AUTO_REGISTER =
            ConfigOption.key("log.system.auto-register").booleanType().defaultValue(false)
                    .withDescription("Create and drop a topic of the table's external log system with the table.")
                    .noEffectYet("external log systems are not supported");

    public static final ConfigOption<Duration> LOG_SYSTEM_AUTO_REGISTER_TIMEOUT =
            ConfigOption.key("log.system.auto-register-timeout").durationType().defaultValue(Duration.ofMinutes(1))
                    .withDescription("Timeout of creating or dropping that topic.")
                    .noEffectYet("external log systems are not supported");

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
