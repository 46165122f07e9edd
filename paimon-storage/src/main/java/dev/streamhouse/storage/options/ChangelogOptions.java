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
        /** Changelog computed at compaction by looking up old values (not supported yet). */
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
                            + "'lookup' or 'full-compaction' (not supported yet). With 'input' and "
                            + "'ignore-delete' = true, -U/-D input records are dropped from the changelog too.");
}
