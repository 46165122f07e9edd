package dev.streamhouse.storage.options;

/** Column statistics kept in manifests (docs/format.md §6.5). */
public final class StatsOptions {
    private StatsOptions() {}

    public static final ConfigOption<String> STATS_MODE =
            ConfigOption.key("metadata.stats-mode").stringType().defaultValue("truncate(16)")
                    .withDescription("Statistics per column: none, counts, full or truncate(N). Override per "
                            + "column with fields.<column>.stats-mode.").checkedBy(StatsOptions::statsModeProblem);

    public static final ConfigOption<Boolean> STATS_DENSE_STORE =
            ConfigOption.key("metadata.stats-dense-store").booleanType().defaultValue(true)
                    .withDescription("Leave columns without statistics out of the stats rows.");

    public static final ConfigOption<Integer> STATS_KEEP_FIRST_N_COLUMNS =
            ConfigOption.key("metadata.stats-keep-first-n-columns").intType().defaultValue(-1)
                    .withDescription("Keep statistics only for the first N columns; -1 keeps all.");

    public static final OptionPattern FIELD_STATS_MODE = OptionPattern.of(
            ConfigOption.key("fields.<field>.stats-mode").stringType().noDefaultValue()
                    .withDescription("Statistics of one column, overriding 'metadata.stats-mode'.")
                    .checkedBy(StatsOptions::statsModeProblem));

    public static final ConfigOption<java.util.Map<String, String>> STATS_MODE_PER_LEVEL =
            ConfigOption.key("metadata.stats-mode.per.level").mapType().defaultValue(java.util.Map.of())
                    .withDescription("Statistics mode per LSM level, e.g. '0:none'.")
                    .noEffectYet("every level keeps statistics per 'metadata.stats-mode'");

    private static String statsModeProblem(String mode) {
        String m = mode.trim().toLowerCase(java.util.Locale.ROOT);
        if (m.equals("none") || m.equals("counts") || m.equals("full")) {
            return null;
        }
        if (m.startsWith("truncate(") && m.endsWith(")")) {
            try {
                if (Integer.parseInt(m.substring("truncate(".length(), m.length() - 1).trim()) > 0) {
                    return null;
                }
            } catch (NumberFormatException e) {
                // fall through
            }
        }
        return "it must be none, counts, full or truncate(N) with N > 0";
    }

    /** Prefix/suffix of the per-column override {@code fields.<column>.stats-mode}. */
    public static String fieldStatsModeKey(String column) {
        return "fields." + column + ".stats-mode";
    }
}
