package dev.streamhouse.storage.options;

/** Column statistics kept in manifests (FORMAT §6.5). */
public final class StatsOptions {
    private StatsOptions() {}

    public static final ConfigOption<String> STATS_MODE =
            ConfigOption.key("metadata.stats-mode").stringType().defaultValue("truncate(16)")
                    .withDescription("Statistics per column: none, counts, full or truncate(N). Override per "
                            + "column with fields.<column>.stats-mode.");

    public static final ConfigOption<Boolean> STATS_DENSE_STORE =
            ConfigOption.key("metadata.stats-dense-store").booleanType().defaultValue(true)
                    .withDescription("Leave columns without statistics out of the stats rows.");

    public static final ConfigOption<Integer> STATS_KEEP_FIRST_N_COLUMNS =
            ConfigOption.key("metadata.stats-keep-first-n-columns").intType().defaultValue(-1)
                    .withDescription("Keep statistics only for the first N columns; -1 keeps all.");

    /** Prefix/suffix of the per-column override {@code fields.<column>.stats-mode}. */
    public static String fieldStatsModeKey(String column) {
        return "fields." + column + ".stats-mode";
    }
}
