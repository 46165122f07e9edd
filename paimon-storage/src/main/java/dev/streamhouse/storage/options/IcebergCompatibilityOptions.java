package dev.streamhouse.storage.options;

/**
 * Iceberg metadata written beside a Paimon table so Iceberg readers see it (Paimon's keys). Not
 * implemented: turning it on is refused, since Iceberg readers would otherwise see stale metadata; the
 * options that only shape that metadata are accepted with a warning.
 */
public final class IcebergCompatibilityOptions {
    private IcebergCompatibilityOptions() {}

    public static final ConfigOption<String> METADATA_ICEBERG_STORAGE =
            ConfigOption.key("metadata.iceberg.storage").oneOf("disabled", "table-location", "hadoop-catalog",
                            "hive-catalog", "rest-catalog")
                    .defaultValue("disabled")
                    .withDescription("Where Iceberg-compatible metadata is written; 'disabled' writes none.")
                    .notSupportedYet("Iceberg-compatible metadata is not written");

    public static final OptionPattern METADATA_ICEBERG = OptionPattern.of(
            ConfigOption.key("metadata.iceberg.*").stringType().noDefaultValue()
                    .withDescription("Settings of the Iceberg-compatible metadata.")
                    .noEffectYet("Iceberg-compatible metadata is not written"));
}
