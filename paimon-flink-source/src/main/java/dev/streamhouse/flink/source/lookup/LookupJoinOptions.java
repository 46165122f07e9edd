package dev.streamhouse.flink.source.lookup;

import dev.streamhouse.storage.options.ConfigOption;
import dev.streamhouse.storage.options.OptionChecks;
import dev.streamhouse.storage.options.OptionPattern;

import java.time.Duration;

/**
 * Options of lookup joins against a table ({@code JOIN dim FOR SYSTEM_TIME AS OF o.proc AS d ON ...}),
 * with Paimon's keys and defaults, read from the joined table's options and {@code OPTIONS} hints.
 * The cache's memory and disk limits ({@code lookup.cache-max-memory-size},
 * {@code lookup.cache-max-disk-size}) are storage's {@code LookupOptions}; the partitions a join
 * follows, {@code scan.partitions}, are storage's {@code ScanOptions}.
 */
public final class LookupJoinOptions {
    private LookupJoinOptions() {}

    /** How the joined table is cached. */
    public enum CacheMode {
        /** The heap while the table's copy fits in 'lookup.cache-max-memory-size', else local disk as FULL. */
        AUTO,
        /** The whole table (filtered and projected) in RocksDB on local disk, followed incrementally. */
        FULL,
        /** The whole table (filtered and projected) on the heap, followed incrementally. */
        MEMORY
    }

    public static final ConfigOption<Boolean> LOOKUP_ASYNC =
            ConfigOption.key("lookup.async").booleanType().defaultValue(false)
                    .withDescription("Look rows up asynchronously, in 'lookup.async-thread-number' threads.");

    public static final ConfigOption<Integer> LOOKUP_ASYNC_THREAD_NUMBER =
            ConfigOption.key("lookup.async-thread-number").intType().defaultValue(16)
                    .withDescription("Threads of asynchronous lookups per join task.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Integer> LOOKUP_BOOTSTRAP_PARALLELISM =
            ConfigOption.key("lookup.bootstrap-parallelism").intType().defaultValue(4)
                    .withDescription("Threads per join task that load the cache from the table's files.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<CacheMode> LOOKUP_CACHE =
            ConfigOption.key("lookup.cache").enumType(CacheMode.class).defaultValue(CacheMode.AUTO)
                    .withDescription("How the joined table is cached: FULL (RocksDB on local disk), MEMORY (the "
                            + "heap, unbounded) or AUTO (the heap while the copy fits in "
                            + "'lookup.cache-max-memory-size', then local disk).");

    public static final ConfigOption<Long> LOOKUP_CACHE_ROWS =
            ConfigOption.key("lookup.cache-rows").longType().defaultValue(10_000L)
                    .withDescription("Join keys whose rows (or absence) are kept on the heap in front of the cache, "
                            + "least recently used dropped first; 0 turns this off.")
                    .checkedBy(OptionChecks.atLeastLong(0));

    public static final ConfigOption<Duration> LOOKUP_CONTINUOUS_DISCOVERY_INTERVAL =
            ConfigOption.key("lookup.continuous.discovery-interval").durationType().noDefaultValue()
                    .withDescription("How often the cache looks for new snapshots of the joined table (default: "
                            + "'continuous.discovery-interval').")
                    .checkedBy(OptionChecks.positiveDuration());

    public static final ConfigOption<Duration> LOOKUP_DYNAMIC_PARTITION_REFRESH_INTERVAL =
            ConfigOption.key("lookup.dynamic-partition.refresh-interval").durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription("How often a 'scan.partitions' of max_pt() looks for newer partitions.")
                    .checkedBy(OptionChecks.positiveDuration());

    public static final ConfigOption<Boolean> LOOKUP_REFRESH_ASYNC =
            ConfigOption.key("lookup.refresh.async").booleanType().defaultValue(false)
                    .withDescription("Refresh the cache in a thread of its own while lookups go on.");

    public static final ConfigOption<Integer> LOOKUP_REFRESH_ASYNC_PENDING_SNAPSHOT_COUNT =
            ConfigOption.key("lookup.refresh.async.pending-snapshot-count").intType().defaultValue(5)
                    .withDescription("With 'lookup.refresh.async': when the cache is more snapshots behind than this, "
                            + "lookups wait for the refresh.")
                    .checkedBy(OptionChecks.atLeast(0));

    public static final ConfigOption<String> LOOKUP_REFRESH_TIME_PERIODS_BLACKLIST =
            ConfigOption.key("lookup.refresh.time-periods-blacklist").stringType().noDefaultValue()
                    .withDescription("Time periods in which the cache is not refreshed: 'start1->end1,start2->end2', "
                            + "times as 'yyyy-MM-dd HH:mm' in the task's time zone.")
                    .checkedBy(value -> {
                        try {
                            RefreshBlacklist.parse(value);
                            return null;
                        } catch (IllegalArgumentException e) {
                            return e.getMessage();
                        }
                    });

    public static final OptionPattern ROCKSDB = OptionPattern.of(
            ConfigOption.key("rocksdb.*").stringType().noDefaultValue()
                    .withDescription("Paimon's tuning of the RocksDB of a full lookup cache; the cache sizes its "
                            + "RocksDB from 'lookup.cache-max-memory-size' instead.")
                    .noEffectYet("the lookup cache's RocksDB is tuned by 'lookup.cache-max-memory-size' only"));
}
