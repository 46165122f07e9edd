package dev.streamhouse.storage.options;

/** Primary-key tables: write buffer, merge engine and LSM compaction (Paimon's names and defaults). */
public final class MergeTreeOptions {
    private MergeTreeOptions() {}

    /** Merge engines. */
    public enum MergeEngine {
        DEDUPLICATE("deduplicate"),
        PARTIAL_UPDATE("partial-update"),
        AGGREGATION("aggregation"),
        FIRST_ROW("first-row");

        private final String value;

        MergeEngine(String value) {
            this.value = value;
        }

        @Override
        public String toString() {
            return value;
        }
    }

    public static final ConfigOption<MergeEngine> MERGE_ENGINE =
            ConfigOption.key("merge-engine").enumType(MergeEngine.class).defaultValue(MergeEngine.DEDUPLICATE)
                    .withDescription("How versions of a key combine: deduplicate (last wins), partial-update, "
                            + "aggregation or first-row.")
                    .immutable().affectingReads();

    public static final ConfigOption<String> SEQUENCE_FIELD =
            ConfigOption.key("sequence.field").stringType().noDefaultValue()
                    .withDescription("Comma-separated columns deciding which version of a key wins (larger wins); "
                            + "ties fall back to arrival order.").immutable();

    public static final ConfigOption<String> SEQUENCE_FIELD_SORT_ORDER =
            ConfigOption.key("sequence.field.sort-order").oneOf("ascending", "descending").defaultValue("ascending")
                    .withDescription("'ascending': the largest sequence field wins; 'descending': the smallest wins.")
                    .immutable();

    public static final ConfigOption<Boolean> IGNORE_DELETE =
            ConfigOption.key("ignore-delete").booleanType().defaultValue(false)
                    .withDescription("Drop -D and -U input records instead of applying them.")
                    .withFallbackKeys("first-row.ignore-delete", "deduplicate.ignore-delete",
                            "partial-update.ignore-delete")
                    .immutable();

    public static final ConfigOption<Boolean> IGNORE_UPDATE_BEFORE =
            ConfigOption.key("ignore-update-before").booleanType().defaultValue(false)
                    .withDescription("Drop -U input records (the old row of an update) instead of applying them as "
                            + "deletes; the +U that follows still replaces the row.").immutable();

    public static final ConfigOption<String> ROWKIND_FIELD =
            ConfigOption.key("rowkind.field").stringType().noDefaultValue()
                    .withDescription("A column whose value ('+I', '-U', '+U', '-D') gives each written row its kind.")
                    .immutable().notSupportedYet("row kinds taken from a column are not implemented; write rows "
                            + "with their own row kinds (e.g. a changelog source) instead");

    public static final ConfigOption<MemorySize> WRITE_BUFFER_SIZE =
            ConfigOption.key("write-buffer-size").memoryType().defaultValue(MemorySize.ofMebiBytes(256))
                    .withDescription("Memory for sorting and merging input before it is flushed as a level-0 "
                            + "file; shared by all buckets of one writer.")
                    .checkedBy(OptionChecks.positiveMemory());

    public static final ConfigOption<Boolean> WRITE_BUFFER_SPILLABLE =
            ConfigOption.key("write-buffer-spillable").booleanType().defaultValue(true)
                    .withDescription("When the write buffer is full, spill sorted runs to local disk instead of "
                            + "flushing a small level-0 file.");

    public static final ConfigOption<MemorySize> WRITE_BUFFER_SPILL_MAX_DISK_SIZE =
            ConfigOption.key("write-buffer-spill.max-disk-size").memoryType()
                    .defaultValue(MemorySize.ofBytes(Long.MAX_VALUE))
                    .withDescription("Largest local disk use of write-buffer spills (default: unlimited).")
                    .checkedBy(OptionChecks.positiveMemory());

    public static final ConfigOption<Integer> LOCAL_SORT_MAX_NUM_FILE_HANDLES =
            ConfigOption.key("local-sort.max-num-file-handles").intType().defaultValue(128)
                    .withDescription("Spilled runs merged at once; more runs are merged in several passes.")
                    .checkedBy(OptionChecks.atLeast(2));

    public static final ConfigOption<Integer> NUM_SORTED_RUNS_COMPACTION_TRIGGER =
            ConfigOption.key("num-sorted-run.compaction-trigger").intType().defaultValue(5)
                    .withDescription("Sorted runs in a bucket (each level-0 file counts as one) that trigger "
                            + "a compaction.").checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Integer> NUM_SORTED_RUNS_STOP_TRIGGER =
            ConfigOption.key("num-sorted-run.stop-trigger").intType().noDefaultValue()
                    .withDescription("Sorted runs at which writes wait for compaction; defaults to the "
                            + "compaction trigger + 3, and is never below the compaction trigger.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Integer> NUM_LEVELS =
            ConfigOption.key("num-levels").intType().noDefaultValue()
                    .withDescription("Levels of the LSM tree; defaults to the compaction trigger + 1.")
                    .checkedBy(OptionChecks.atLeast(2));

    public static final ConfigOption<Integer> COMPACTION_MAX_SIZE_AMPLIFICATION_PERCENT =
            ConfigOption.key("compaction.max-size-amplification-percent").intType().defaultValue(200)
                    .withDescription("Full compaction when the newer runs together exceed this percentage of "
                            + "the oldest run's size.").checkedBy(OptionChecks.atLeast(0));

    public static final ConfigOption<Integer> COMPACTION_SIZE_RATIO =
            ConfigOption.key("compaction.size-ratio").intType().defaultValue(1)
                    .withDescription("Percentage flexibility when comparing sorted run sizes for universal "
                            + "compaction.").checkedBy(OptionChecks.atLeast(0));

    public static final ConfigOption<Integer> FULL_COMPACTION_DELTA_COMMITS =
            ConfigOption.key("full-compaction.delta-commits").intType().noDefaultValue()
                    .withDescription("Run a full compaction every this many commits.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Boolean> WRITE_ONLY =
            ConfigOption.key("write-only").booleanType().defaultValue(false)
                    .withDescription("Never compact in the write job (its writers, or the compaction coordinator of "
                            + "an append table without buckets) and never expire snapshots after its commits (use a "
                            + "separate compaction job, which expires them).")
                    .withFallbackKeys("write.compaction-skip");

    public static final ConfigOption<Boolean> DELETION_VECTORS_ENABLED =
            ConfigOption.key("deletion-vectors.enabled").booleanType().defaultValue(false)
                    .withDescription("Merge-on-write with deletion vectors (primary-key tables): compactions of "
                            + "level 0 mark the older versions of their keys deleted, and batch reads skip level 0 "
                            + "and read the other files without merging, skipping the deleted rows. Works with "
                            + "the 'none', 'input' and 'lookup' changelog producers, not with 'first-row'.")
                    .immutable();

    public static final ConfigOption<MemorySize> DELETION_VECTOR_INDEX_FILE_TARGET_SIZE =
            ConfigOption.key("deletion-vector.index-file.target-size").memoryType().defaultValue(MemorySize.ofMebiBytes(2))
                    .withDescription("Target size of deletion-vector index files.")
                    .noEffectYet("primary-key tables keep one deletion-vector index file per bucket, as Paimon 1.3 "
                            + "does; the target size applies to append tables, which have no deletion vectors here yet");

    public static final ConfigOption<Boolean> DELETION_VECTORS_BITMAP64 =
            ConfigOption.key("deletion-vectors.bitmap64").booleanType().defaultValue(false)
                    .withDescription("Write deletion vectors as 64-bit bitmaps (the layout Iceberg reads); both "
                            + "layouts are read.");

    public static final ConfigOption<Boolean> DELETE_FORCE_PRODUCE_CHANGELOG =
            ConfigOption.key("delete.force-produce-changelog").booleanType().defaultValue(false)
                    .withDescription("Whether a DELETE statement always writes row-level deletes (so streaming "
                            + "readers see them) instead of dropping whole partitions or the table when its filter "
                            + "allows. Here DELETE always writes row-level deletes, as with true.");

    public static final ConfigOption<Long> DYNAMIC_BUCKET_TARGET_ROW_NUM =
            ConfigOption.key("dynamic-bucket.target-row-num").longType().defaultValue(2_000_000L)
                    .withDescription("Keys per bucket before a dynamic-bucket table opens a new bucket.")
                    .checkedBy(OptionChecks.atLeastLong(1));

    public static final ConfigOption<Integer> DYNAMIC_BUCKET_INITIAL_BUCKETS =
            ConfigOption.key("dynamic-bucket.initial-buckets").intType().noDefaultValue()
                    .withDescription("Buckets a dynamic-bucket assigner starts with per partition.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Integer> DYNAMIC_BUCKET_MAX_BUCKETS =
            ConfigOption.key("dynamic-bucket.max-buckets").intType().defaultValue(-1)
                    .withDescription("Most buckets per partition of a dynamic-bucket table; -1 is unlimited.")
                    .checkedBy(OptionChecks.unlimitedOrPositive());

    /** The compaction trigger. */
    public static int compactionTrigger(Options o) {
        return o.get(NUM_SORTED_RUNS_COMPACTION_TRIGGER);
    }

    /** The stop trigger (default: trigger + 3; never below the trigger, as in Paimon). */
    public static int stopTrigger(Options o) {
        Integer configured = o.get(NUM_SORTED_RUNS_STOP_TRIGGER);
        int trigger = compactionTrigger(o);
        return Math.max(trigger, configured != null ? configured : trigger + 3);
    }

    /** The number of levels (default: trigger + 1). */
    public static int numLevels(Options o) {
        Integer configured = o.get(NUM_LEVELS);
        return configured != null ? configured : compactionTrigger(o) + 1;
    }
}
