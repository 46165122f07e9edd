package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.options.ConfigOption;
import dev.streamhouse.storage.options.OptionPattern;

/**
 * Table option keys that Flink's side of a table occupies: the connector, and the parts of a Flink
 * schema the table format has no field for (watermarks and computed columns), which this catalog
 * stores as options exactly as Paimon's Flink catalog does ({@link WatermarkOptions},
 * {@link ComputedColumnOptions}).
 */
public final class CatalogTableOptions {
    private CatalogTableOptions() {}

    /** The identifier of the catalog type and of the connector: {@code 'type'='paimon'}, {@code 'connector'='paimon'}. */
    public static final String PAIMON = "paimon";

    public static final ConfigOption<String> CONNECTOR =
            ConfigOption.key("connector").stringType().noDefaultValue()
                    .withDescription("'paimon' for tables used without a catalog; tables of a paimon catalog are "
                            + "always paimon tables.")
                    .supportedOnly("'paimon' only", v -> v.equals(PAIMON) ? null
                            : "tables of this catalog are paimon tables");

    public static final OptionPattern FLINK_SCHEMA = OptionPattern.of(
            ConfigOption.key("schema.*").stringType().noDefaultValue()
                    .withDescription("Watermarks ('schema.watermark.0.*') and computed columns ('schema.<index>.*') "
                            + "of the table's Flink schema, written by the catalog from the DDL."));
}
