package dev.streamhouse.storage.options;

/**
 * File indexes (bloom filters, bitmaps, ... per data file; Paimon's keys and defaults). They only
 * let readers skip files, so this store, which neither writes nor uses them yet, accepts them with a
 * warning; tables that have them are read in full, with the same rows.
 */
public final class FileIndexOptions {
    private FileIndexOptions() {}

    private static final String NO_INDEX = "file indexes are neither written nor used for skipping yet";

    public static final ConfigOption<MemorySize> FILE_INDEX_IN_MANIFEST_THRESHOLD =
            ConfigOption.key("file-index.in-manifest-threshold").memoryType().defaultValue(MemorySize.ofBytes(500))
                    .withDescription("File indexes up to this size are stored in the manifest, larger ones in "
                            + "their own file.").noEffectYet(NO_INDEX);

    public static final ConfigOption<Boolean> FILE_INDEX_READ_ENABLED =
            ConfigOption.key("file-index.read.enabled").booleanType().defaultValue(true)
                    .withDescription("Whether reads use file indexes to skip files.").noEffectYet(NO_INDEX);

    public static final OptionPattern FILE_INDEX = OptionPattern.of(
            ConfigOption.key("file-index.*").stringType().noDefaultValue()
                    .withDescription("Which file indexes to write for which columns, and their settings, e.g. "
                            + "'file-index.bloom-filter.columns'.").noEffectYet(NO_INDEX));
}
