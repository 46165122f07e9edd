package dev.streamhouse.storage.options;

/**
 * How a primary-key table produces the changelog that streaming readers consume (FORMAT §10,
 * Paimon's {@code changelog-producer}).
 */
public final class ChangelogOptions {
    private ChangelogOptions() {}

    /** Values of {@code changelog-producer}. */
    public enum ChangelogProducer {
        /** No changelog files; streaming readers derive changes from the delta data files. */
        NONE("none"),
        /**
         * Every input record, unmerged, is also written to changelog files at each write-buffer flush;
         * they travel in the APPEND snapshot's changelog manifest list.
         */
        INPUT("input"),
        /**
         * Changelog computed at compaction by looking up old values; it travels in COMPACT snapshots.
         * Read (batch and streaming) in tables Apache Paimon writes; not written yet.
         */
        LOOKUP("lookup"),
        /** Changelog as the difference between full compactions (not supported yet). */
        FULL_COMPACTION("full-compaction");

        private final String value;

        ChangelogProducer(String value) {
            this.value = value;
        }

        @Override
        public String toString() {
            return value;
        }
    }

    public static final ConfigOption<ChangelogProducer> CHANGELOG_PRODUCER =
            ConfigOption.key("changelog-producer").enumType(ChangelogProducer.class)
                    .defaultValue(ChangelogProducer.NONE)
                    .withDescription("How a primary-key table produces changelog for streaming reads: 'none', "
                            + "'input' (double-write the unmerged input into changelog files at each flush), "
                            + "'lookup' (read in tables Apache Paimon writes, not written yet) or 'full-compaction' "
                            + "(not supported yet). With 'input' and "
                            + "'ignore-delete' = true, -U/-D input records are dropped from the changelog too.")
                    .supportedOnly("'none' and 'input'; 'lookup' and 'full-compaction' refused",
                            OptionChecks.only(ChangelogProducer.NONE, ChangelogProducer.INPUT));

    private static final String NO_COMPACTION_CHANGELOG = "only used by the 'lookup' and 'full-compaction' "
            + "changelog producers, which are not implemented";

    public static final ConfigOption<Boolean> CHANGELOG_PRODUCER_ROW_DEDUPLICATE =
            ConfigOption.key("changelog-producer.row-deduplicate").booleanType().defaultValue(false)
                    .withDescription("Leave out -U/+U pairs of unchanged rows from the changelog.")
                    .noEffectYet(NO_COMPACTION_CHANGELOG);

    public static final ConfigOption<String> CHANGELOG_PRODUCER_ROW_DEDUPLICATE_IGNORE_FIELDS =
            ConfigOption.key("changelog-producer.row-deduplicate-ignore-fields").stringType().noDefaultValue()
                    .withDescription("Columns not compared by 'changelog-producer.row-deduplicate'.")
                    .noEffectYet(NO_COMPACTION_CHANGELOG);

    public static final ConfigOption<String> CHANGELOG_FILE_FORMAT =
            ConfigOption.key("changelog-file.format").stringType().noDefaultValue()
                    .withDescription("Format of changelog files (default: 'file.format').")
                    .noEffectYet("changelog files are written like data files (Parquet)");

    public static final ConfigOption<String> CHANGELOG_FILE_COMPRESSION =
            ConfigOption.key("changelog-file.compression").stringType().noDefaultValue()
                    .withDescription("Compression of changelog files (default: 'file.compression').")
                    .noEffectYet("changelog files are compressed like data files");

    public static final ConfigOption<String> CHANGELOG_FILE_STATS_MODE =
            ConfigOption.key("changelog-file.stats-mode").stringType().noDefaultValue()
                    .withDescription("Statistics of changelog files (default: 'metadata.stats-mode').")
                    .noEffectYet("changelog files keep statistics like data files");
}
