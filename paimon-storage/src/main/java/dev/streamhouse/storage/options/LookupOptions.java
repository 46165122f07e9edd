package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Local lookup files and lookup compaction (Paimon's keys and defaults): what the {@code lookup}
 * changelog producer, first-row compaction, {@code force-lookup} and deletion vectors use. The
 * memory and disk limits also bound the cache of lookup joins
 * ({@code dev.streamhouse.storage.lookup.LookupTable}), which uses them.
 */
public final class LookupOptions {
    private LookupOptions() {}

    private static final String NO_LOOKUP = "local lookup files are written uncompressed, and versions are merged "
            + "in heap";

    public static final ConfigOption<Boolean> FORCE_LOOKUP =
            ConfigOption.key("force-lookup").booleanType().defaultValue(false)
                    .withDescription("Compact with lookups even when no changelog or deletion vector needs them: "
                            + "every commit moves level 0 up, merging each key with its looked-up older value.")
                    .immutable();

    public static final ConfigOption<Boolean> LOOKUP_WAIT =
            ConfigOption.key("lookup-wait").booleanType().defaultValue(true)
                    .withDescription("Whether a commit waits for the lookup compaction of its level-0 files (and so "
                            + "carries their changelog); otherwise a later commit does.")
                    .withFallbackKeys("changelog-producer.lookup-wait");

    public static final ConfigOption<String> LOOKUP_COMPACT =
            ConfigOption.key("lookup-compact").oneOf("RADICAL", "GENTLE").defaultValue("RADICAL")
                    .withDescription("Lookup compaction of level 0 at every commit (RADICAL) or only every "
                            + "'lookup-compact.max-interval' commits, with ordinary compactions between (GENTLE).");

    public static final ConfigOption<Integer> LOOKUP_COMPACT_MAX_INTERVAL =
            ConfigOption.key("lookup-compact.max-interval").intType().noDefaultValue()
                    .withDescription("GENTLE: every how many commits level 0 is moved up (default twice "
                            + "'num-sorted-run.compaction-trigger'; never less than that trigger).")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<String> LOOKUP_LOCAL_FILE_TYPE =
            ConfigOption.key("lookup.local-file-type").oneOf("sort", "hash").defaultValue("sort")
                    .withDescription("Layout of the local lookup files of lookup compactions: key-ordered blocks "
                            + "with an in-heap index (sort) or an on-disk hash table (hash).");

    public static final ConfigOption<Double> LOOKUP_HASH_LOAD_FACTOR =
            ConfigOption.key("lookup.hash-load-factor").doubleType().defaultValue(0.75)
                    .withDescription("Load factor of hash lookup files.")
                    .checkedBy(OptionChecks.betweenDouble(0, 1));

    public static final ConfigOption<Duration> LOOKUP_CACHE_FILE_RETENTION =
            ConfigOption.key("lookup.cache-file-retention").durationType().defaultValue(Duration.ofHours(1))
                    .withDescription("How long unused local lookup files are kept.");

    public static final ConfigOption<MemorySize> LOOKUP_CACHE_MAX_DISK_SIZE =
            ConfigOption.key("lookup.cache-max-disk-size").memoryType().defaultValue(MemorySize.ofBytes(Long.MAX_VALUE))
                    .withDescription("Most local disk a lookup-join cache, and the local lookup files of lookup compactions, may use "
                            + "(default: unlimited); a cache that needs more fails, naming this option.");

    public static final ConfigOption<String> LOOKUP_CACHE_SPILL_COMPRESSION =
            ConfigOption.key("lookup.cache-spill-compression").stringType().defaultValue("zstd")
                    .withDescription("Compression of local lookup files.").noEffectYet(NO_LOOKUP);

    public static final ConfigOption<MemorySize> LOOKUP_CACHE_MAX_MEMORY_SIZE =
            ConfigOption.key("lookup.cache-max-memory-size").memoryType().defaultValue(MemorySize.ofMebiBytes(256))
                    .withDescription("Most memory of a lookup-join cache: the heap it may fill with "
                            + "'lookup.cache' = AUTO before it moves to local disk, or its RocksDB's block cache and "
                            + "write buffers; later also the pages of lookup files.");

    public static final ConfigOption<Double> LOOKUP_CACHE_HIGH_PRIORITY_POOL_RATIO =
            ConfigOption.key("lookup.cache.high-priority-pool-ratio").doubleType().defaultValue(0.25)
                    .withDescription("Share of the lookup cache kept for indexes and filters.")
                    .noEffectYet("the index and filters of local lookup files live in heap, outside any cache");

    public static final ConfigOption<Boolean> LOOKUP_CACHE_BLOOM_FILTER_ENABLED =
            ConfigOption.key("lookup.cache.bloom.filter.enabled").booleanType().defaultValue(true)
                    .withDescription("Bloom filters (in heap) of local lookup files.");

    public static final ConfigOption<Double> LOOKUP_CACHE_BLOOM_FILTER_FPP =
            ConfigOption.key("lookup.cache.bloom.filter.fpp").doubleType().defaultValue(0.05)
                    .withDescription("False-positive rate of those bloom filters.");

    public static final ConfigOption<MemorySize> LOOKUP_MERGE_BUFFER_SIZE =
            ConfigOption.key("lookup.merge-buffer-size").memoryType().defaultValue(MemorySize.ofMebiBytes(8))
                    .withDescription("Memory for merging the versions of one key in a lookup.")
                    .noEffectYet(NO_LOOKUP);

    public static final ConfigOption<Integer> LOOKUP_MERGE_RECORDS_THRESHOLD =
            ConfigOption.key("lookup.merge-records-threshold").intType().defaultValue(1024)
                    .withDescription("Versions of one key beyond which a lookup merges in a binary buffer.")
                    .noEffectYet(NO_LOOKUP);
}
