package dev.streamhouse.storage.options;

/**
 * How a primary-key table produces the changelog that streaming readers consume (docs/format.md §10,
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
         * Changelog written by the compaction that moves level-0 files up, from each key's looked-up
         * previous value; it travels in the COMPACT snapshot's changelog manifest list.
         */
        LOOKUP("lookup"),
        /**
         * Changelog as the difference between successive full compactions (every
         * {@code full-compaction.delta-commits} commits); it travels in the COMPACT snapshots.
         */
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
                            + "'lookup' (the compaction at each commit looks up each key's previous value and "
                            + "writes -U/+U, +I, -D), or 'full-compaction' (the difference between successive full "
                            + "compactions, every 'full-compaction.delta-commits' commits, default 1). With 'input' "
                            + "and 'ignore-delete' = true, -U/-D input records are dropped from the changelog too.");

    public static final ConfigOption<Boolean> CHANGELOG_PRODUCER_ROW_DEDUPLICATE =
            ConfigOption.key("changelog-producer.row-deduplicate").booleanType().defaultValue(false)
                    .withDescription("Leave out -U/+U pairs of unchanged rows from the changelog of 'lookup' and 'full-compaction'.");

    public static final ConfigOption<String> CHANGELOG_PRODUCER_ROW_DEDUPLICATE_IGNORE_FIELDS =
            ConfigOption.key("changelog-producer.row-deduplicate-ignore-fields").stringType().noDefaultValue()
                    .withDescription("Columns not compared by 'changelog-producer.row-deduplicate' "
                            + "(comma-separated).");

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
