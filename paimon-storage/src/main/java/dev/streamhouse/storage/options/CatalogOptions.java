package dev.streamhouse.storage.options;

/** Options of a catalog (not of a table). */
public final class CatalogOptions {
    private CatalogOptions() {}

    public static final ConfigOption<String> WAREHOUSE =
            ConfigOption.key("warehouse").stringType().noDefaultValue()
                    .withDescription("Root directory of the warehouse, e.g. file:///data/warehouse or /data/warehouse.");

    public static final ConfigOption<String> DEFAULT_DATABASE =
            ConfigOption.key("default-database").stringType().defaultValue("default")
                    .withDescription("Database used when a table identifier names none.");
}
