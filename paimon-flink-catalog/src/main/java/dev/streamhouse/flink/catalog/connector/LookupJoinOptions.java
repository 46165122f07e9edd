package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.storage.options.ConfigOption;
import dev.streamhouse.storage.options.OptionPattern;

import java.time.Duration;

/**
 * Options of lookup joins against a table ({@code JOIN dim FOR SYSTEM_TIME AS OF ...}), with Paimon's
 * keys and defaults. Lookup joins are not implemented yet (the planner refuses them), so these tune
 * nothing and are accepted with a warning; {@code scan.partitions}, which also restricts ordinary
 * scans, is refused.
 */
public final class LookupJoinOptions {
    private LookupJoinOptions() {}

    private static final String NO_LOOKUP_JOIN = "lookup joins are not implemented yet";

    public static final ConfigOption<Boolean> LOOKUP_ASYNC =
            ConfigOption.key("lookup.async").booleanType().defaultValue(false)
                    .withDescription("Look rows up asynchronously.").noEffectYet(NO_LOOKUP_JOIN);

    public static final ConfigOption<Integer> LOOKUP_ASYNC_THREAD_NUMBER =
            ConfigOption.key("lookup.async-thread-number").intType().defaultValue(16)
                    .withDescription("Threads of asynchronous lookups.").noEffectYet(NO_LOOKUP_JOIN);

    public static final ConfigOption<Integer> LOOKUP_BOOTSTRAP_PARALLELISM =
            ConfigOption.key("lookup.bootstrap-parallelism").intType().defaultValue(4)
                    .withDescription("Threads that load the lookup cache.").noEffectYet(NO_LOOKUP_JOIN);

    public static final ConfigOption<String> LOOKUP_CACHE =
            ConfigOption.key("lookup.cache").oneOf("AUTO", "FULL", "MEMORY").defaultValue("AUTO")
                    .withDescription("How the joined table is cached: AUTO, FULL (on local disk) or MEMORY.")
                    .noEffectYet(NO_LOOKUP_JOIN);

    public static final ConfigOption<Long> LOOKUP_CACHE_ROWS =
            ConfigOption.key("lookup.cache-rows").longType().defaultValue(10_000L)
                    .withDescription("Rows kept in the in-memory front of the lookup cache.").noEffectYet(NO_LOOKUP_JOIN);

    public static final ConfigOption<Duration> LOOKUP_CONTINUOUS_DISCOVERY_INTERVAL =
            ConfigOption.key("lookup.continuous.discovery-interval").durationType().noDefaultValue()
                    .withDescription("How often the lookup cache looks for new snapshots (default: "
                            + "'continuous.discovery-interval').").noEffectYet(NO_LOOKUP_JOIN);

    public static final ConfigOption<String> SCAN_PARTITIONS =
            ConfigOption.key("scan.partitions").stringType().noDefaultValue()
                    .withDescription("Partitions a read (or a lookup join) reads, e.g. 'dt=max_pt()'.")
                    .withFallbackKeys("lookup.dynamic-partition").affectingReads()
                    .notSupportedYet("reading selected partitions by option is not implemented; filter with WHERE");

    public static final ConfigOption<Duration> LOOKUP_DYNAMIC_PARTITION_REFRESH_INTERVAL =
            ConfigOption.key("lookup.dynamic-partition.refresh-interval").durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription("How often 'max_pt()' partitions are looked for again.").noEffectYet(NO_LOOKUP_JOIN);

    public static final ConfigOption<Boolean> LOOKUP_REFRESH_ASYNC =
            ConfigOption.key("lookup.refresh.async").booleanType().defaultValue(false)
                    .withDescription("Refresh the lookup cache in a separate thread.").noEffectYet(NO_LOOKUP_JOIN);

    public static final ConfigOption<Integer> LOOKUP_REFRESH_ASYNC_PENDING_SNAPSHOT_COUNT =
            ConfigOption.key("lookup.refresh.async.pending-snapshot-count").intType().defaultValue(5)
                    .withDescription("Snapshots behind at which an asynchronous refresh blocks lookups.")
                    .noEffectYet(NO_LOOKUP_JOIN);

    public static final ConfigOption<String> LOOKUP_REFRESH_TIME_PERIODS_BLACKLIST =
            ConfigOption.key("lookup.refresh.time-periods-blacklist").stringType().noDefaultValue()
                    .withDescription("Time periods in which the lookup cache is not refreshed.")
                    .noEffectYet(NO_LOOKUP_JOIN);

    public static final OptionPattern ROCKSDB = OptionPattern.of(
            ConfigOption.key("rocksdb.*").stringType().noDefaultValue()
                    .withDescription("Settings of the RocksDB that holds a full lookup cache.").noEffectYet(NO_LOOKUP_JOIN));
}
