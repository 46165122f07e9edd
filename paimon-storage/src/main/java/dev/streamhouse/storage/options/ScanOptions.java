package dev.streamhouse.storage.options;

/**
 * Which snapshot a batch read uses by default (time travel), usually set as dynamic table options
 * ({@code Table.copy}, e.g. from a SQL {@code OPTIONS} hint or {@code FOR SYSTEM_TIME AS OF}). At most
 * one of them may be set; {@code ReadBuilder.withSnapshot} / {@code withTimestampMillis} override both.
 */
public final class ScanOptions {
    private ScanOptions() {}

    public static final ConfigOption<Long> SCAN_SNAPSHOT_ID =
            ConfigOption.key("scan.snapshot-id").longType().noDefaultValue()
                    .withDescription("Read this snapshot instead of the latest.");

    public static final ConfigOption<Long> SCAN_TIMESTAMP_MILLIS =
            ConfigOption.key("scan.timestamp-millis").longType().noDefaultValue()
                    .withDescription("Read the latest snapshot committed at or before this time (epoch millis); "
                            + "fails if every snapshot is younger.");
}
