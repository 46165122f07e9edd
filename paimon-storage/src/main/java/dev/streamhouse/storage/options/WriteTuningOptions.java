package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Paimon's knobs for memory, spilling, batching and I/O threads of readers and writers. This store
 * sizes these itself ({@code write-buffer-size} and {@code write-buffer-spillable} are in
 * {@link MergeTreeOptions}); these are accepted with a warning: they change speed and memory, never
 * rows.
 */
public final class WriteTuningOptions {
    private WriteTuningOptions() {}

    private static final String OWN_SIZING = "this store sizes its buffers and threads itself";

    public static final ConfigOption<String> SORT_ENGINE =
            ConfigOption.key("sort-engine").oneOf("min-heap", "loser-tree").defaultValue("loser-tree")
                    .withDescription("Algorithm that merges sorted runs.").noEffectYet("merges use one algorithm");

    public static final ConfigOption<Integer> SORT_SPILL_THRESHOLD =
            ConfigOption.key("sort-spill-threshold").intType().noDefaultValue()
                    .withDescription("Sorted runs read at once before a merge spills to disk.")
                    .checkedBy(OptionChecks.atLeast(2)).noEffectYet(OWN_SIZING);

    public static final ConfigOption<MemorySize> SORT_SPILL_BUFFER_SIZE =
            ConfigOption.key("sort-spill-buffer-size").memoryType().defaultValue(MemorySize.ofMebiBytes(64))
                    .withDescription("Memory of a spilling merge.").checkedBy(OptionChecks.positiveMemory())
                    .noEffectYet(OWN_SIZING);

    public static final ConfigOption<String> SPILL_COMPRESSION =
            ConfigOption.key("spill-compression").stringType().defaultValue("zstd")
                    .withDescription("Compression of spill files.").noEffectYet("spill files have a fixed encoding");

    public static final ConfigOption<Integer> SPILL_COMPRESSION_ZSTD_LEVEL =
            ConfigOption.key("spill-compression.zstd-level").intType().defaultValue(1)
                    .withDescription("Zstandard level of spill files.")
                    .noEffectYet("spill files have a fixed encoding");

    public static final ConfigOption<Boolean> WRITE_BUFFER_FOR_APPEND =
            ConfigOption.key("write-buffer-for-append").booleanType().defaultValue(false)
                    .withDescription("Append tables: buffer rows in memory before writing files.")
                    .noEffectYet(OWN_SIZING);

    public static final ConfigOption<Integer> WRITE_MAX_WRITERS_TO_SPILL =
            ConfigOption.key("write-max-writers-to-spill").intType().defaultValue(10)
                    .withDescription("Append tables: open writers beyond which batch inserts buffer and spill.")
                    .noEffectYet(OWN_SIZING);

    public static final ConfigOption<MemorySize> PAGE_SIZE =
            ConfigOption.key("page-size").memoryType().defaultValue(MemorySize.ofBytes(64 << 10))
                    .withDescription("Memory page size.").checkedBy(OptionChecks.positiveMemory())
                    .noEffectYet(OWN_SIZING);

    public static final ConfigOption<MemorySize> CACHE_PAGE_SIZE =
            ConfigOption.key("cache-page-size").memoryType().defaultValue(MemorySize.ofBytes(64 << 10))
                    .withDescription("Memory page size of caches; the block size of sort-layout local lookup "
                            + "files (a lookup of a present key reads one block).")
                    .checkedBy(OptionChecks.positiveMemory());

    public static final ConfigOption<MemorySize> LOCAL_MERGE_BUFFER_SIZE =
            ConfigOption.key("local-merge-buffer-size").memoryType().noDefaultValue()
                    .withDescription("Merge rows of one key before they are shuffled to writers (against skew).")
                    .checkedBy(OptionChecks.positiveMemory()).noEffectYet("there is no local merge before the shuffle");

    public static final ConfigOption<Boolean> ASYNC_FILE_WRITE =
            ConfigOption.key("async-file-write").booleanType().defaultValue(true)
                    .withDescription("Write data files from a separate thread.").noEffectYet(OWN_SIZING);

    public static final ConfigOption<MemorySize> FILE_READER_ASYNC_THRESHOLD =
            ConfigOption.key("file-reader-async-threshold").memoryType().defaultValue(MemorySize.ofMebiBytes(10))
                    .withDescription("Files larger than this are read asynchronously.").noEffectYet(OWN_SIZING);

    public static final ConfigOption<Integer> READ_BATCH_SIZE =
            ConfigOption.key("read.batch-size").intType().defaultValue(1024)
                    .withDescription("Rows per batch of columnar readers.").checkedBy(OptionChecks.atLeast(1))
                    .noEffectYet(OWN_SIZING);

    public static final ConfigOption<Integer> WRITE_BATCH_SIZE =
            ConfigOption.key("write.batch-size").intType().defaultValue(1024)
                    .withDescription("Rows per batch of columnar writers.").withFallbackKeys("orc.write.batch-size")
                    .checkedBy(OptionChecks.atLeast(1)).noEffectYet(OWN_SIZING);

    public static final ConfigOption<MemorySize> WRITE_BATCH_MEMORY =
            ConfigOption.key("write.batch-memory").memoryType().defaultValue(MemorySize.ofMebiBytes(128))
                    .withDescription("Memory per batch of columnar writers.").noEffectYet(OWN_SIZING);

    public static final ConfigOption<Integer> FILE_OPERATION_THREAD_NUM =
            ConfigOption.key("file-operation.thread-num").intType().noDefaultValue()
                    .withDescription("Threads for concurrent file operations (default: the number of cores).")
                    .withFallbackKeys("delete-file.thread-num").checkedBy(OptionChecks.atLeast(1))
                    .noEffectYet(OWN_SIZING);

    public static final ConfigOption<Duration> CROSS_PARTITION_UPSERT_INDEX_TTL =
            ConfigOption.key("cross-partition-upsert.index-ttl").durationType().noDefaultValue()
                    .withDescription("How long the key index of a cross-partition upsert keeps a key.")
                    .noEffectYet("cross-partition upserts are not supported; such tables are refused for writing");

    public static final ConfigOption<Integer> CROSS_PARTITION_UPSERT_BOOTSTRAP_PARALLELISM =
            ConfigOption.key("cross-partition-upsert.bootstrap-parallelism").intType().defaultValue(10)
                    .withDescription("Threads that load the key index of a cross-partition upsert.")
                    .noEffectYet("cross-partition upserts are not supported; such tables are refused for writing");

    public static final ConfigOption<Integer> DYNAMIC_BUCKET_ASSIGNER_PARALLELISM =
            ConfigOption.key("dynamic-bucket.assigner-parallelism").intType().noDefaultValue()
                    .withDescription("Parallelism of the operator that assigns dynamic buckets.")
                    .checkedBy(OptionChecks.atLeast(1));
}
