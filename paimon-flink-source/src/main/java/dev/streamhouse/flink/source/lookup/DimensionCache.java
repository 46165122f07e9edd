package dev.streamhouse.flink.source.lookup;

import dev.streamhouse.flink.common.metrics.LookupMetrics;

import dev.streamhouse.flink.common.data.RowDataView;
import dev.streamhouse.flink.source.data.FlinkRowData;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.lookup.LookupTable;
import dev.streamhouse.storage.options.LookupOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.StreamReadOptions;
import org.apache.flink.table.data.RowData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lookup side of one join task: the {@link LookupTable} of the joined table, refreshed as the
 * options say, with a small heap cache of recent join keys in front (hits and misses alike,
 * {@code lookup.cache-rows}), shared by the sync and async lookup functions.
 *
 * <p><b>Refresh.</b> A lookup that comes {@code lookup.continuous.discovery-interval} (falling back to
 * {@code continuous.discovery-interval}) after the last refresh first refreshes the cache: inline, or
 * with {@code lookup.refresh.async} in a thread of its own while lookups go on (they wait only when
 * the cache is more than {@code lookup.refresh.async.pending-snapshot-count} snapshots behind). No
 * refresh starts inside a {@code lookup.refresh.time-periods-blacklist} period. A dynamic
 * {@code scan.partitions} is chosen again every {@code lookup.dynamic-partition.refresh-interval}.
 * The recent keys ({@link RecentKeys}) front a copy on local disk only (a heap copy is as fast), and
 * forget everything whenever a refresh changed the copy; rows read while a refresh was running are
 * not kept.
 *
 * <p>Thread-safe.
 */
final class DimensionCache implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(DimensionCache.class);

    private final LookupTable table;
    private final Path directory;
    private final long refreshIntervalMillis;
    private final long partitionIntervalMillis;
    private final boolean asyncRefresh;
    private final int pendingSnapshotLimit;
    private final RefreshBlacklist blacklist;
    /** The recent join keys and their rows; null when {@code lookup.cache-rows} is 0. */
    private final RecentKeys recent;
    /** Bumped whenever a refresh changed the copy: older entries of {@link #recent} are stale. */
    private final AtomicLong generation = new AtomicLong();
    private volatile boolean refreshing;
    private final Object refreshLock = new Object();
    private final ExecutorService refresher;

    private volatile long nextRefreshMillis;
    private long nextPartitionRefreshMillis;
    private Future<?> runningRefresh;
    private volatile Throwable refreshFailure;

    private final LookupMetrics metrics;

    private DimensionCache(LookupTable table, Path directory, Options options, LookupMetrics metrics) {
        this.table = table;
        this.metrics = metrics;
        this.directory = directory;
        Duration interval = options.get(LookupJoinOptions.LOOKUP_CONTINUOUS_DISCOVERY_INTERVAL);
        this.refreshIntervalMillis = (interval != null ? interval
                : options.get(StreamReadOptions.CONTINUOUS_DISCOVERY_INTERVAL)).toMillis();
        this.partitionIntervalMillis = options.get(LookupJoinOptions.LOOKUP_DYNAMIC_PARTITION_REFRESH_INTERVAL).toMillis();
        this.asyncRefresh = options.get(LookupJoinOptions.LOOKUP_REFRESH_ASYNC);
        this.pendingSnapshotLimit = options.get(LookupJoinOptions.LOOKUP_REFRESH_ASYNC_PENDING_SNAPSHOT_COUNT);
        this.blacklist = RefreshBlacklist.parse(options.get(LookupJoinOptions.LOOKUP_REFRESH_TIME_PERIODS_BLACKLIST));
        long rows = options.get(LookupJoinOptions.LOOKUP_CACHE_ROWS);
        this.recent = rows == 0 ? null : new RecentKeys(rows);
        this.refresher = asyncRefresh ? Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "lookup-refresh-" + table);
            t.setDaemon(true);
            return t;
        }) : null;
        long now = System.currentTimeMillis();
        this.nextRefreshMillis = now + refreshIntervalMillis;
        this.nextPartitionRefreshMillis = now + partitionIntervalMillis;
    }

    /**
     * Loads the cache of {@code spec}'s table into {@code directory} (a directory of its own).
     *
     * @throws IllegalArgumentException if an option of the table cannot serve a lookup
     */
    static DimensionCache open(LookupJoinSpec spec, Path directory, LookupMetrics metrics) {
        Options options = spec.table().schema().tableOptions();
        LookupTable.Store store;
        switch (options.get(LookupJoinOptions.LOOKUP_CACHE)) {
            case FULL:
                store = LookupTable.Store.DISK;
                break;
            case MEMORY:
                store = LookupTable.Store.HEAP;
                break;
            case AUTO:
            default:
                store = LookupTable.Store.HEAP_THEN_DISK;
        }
        LookupTable table = LookupTable.create(spec.table(), spec.outputProjection(), spec.joinKeys(), spec.filter(),
                new LookupTable.Settings(store, directory,
                        options.get(LookupOptions.LOOKUP_CACHE_MAX_MEMORY_SIZE).bytes(),
                        options.get(LookupOptions.LOOKUP_CACHE_MAX_DISK_SIZE).bytes(),
                        options.get(LookupJoinOptions.LOOKUP_BOOTSTRAP_PARALLELISM)));
        long started = System.nanoTime();
        try {
            table.open();
        } catch (RuntimeException | Error e) {
            table.close();
            deleteDirectory(directory);
            throw e;
        }
        metrics.loaded((System.nanoTime() - started) / 1_000_000, table.snapshotId(), table::diskBytes);
        return new DimensionCache(table, directory, options, metrics);
    }

    /** The encoded join key of a Flink key row, or null when a value is NULL (nothing matches). */
    byte[] keyOf(RowData key) {
        for (int i = 0; i < key.getArity(); i++) {
            if (key.isNullAt(i)) {
                return null;
            }
        }
        return table.encodeKey(new RowDataView(key));
    }

    /** The rows of an encoded join key (of {@link #keyOf}; null finds nothing). */
    List<RowData> lookup(byte[] key) {
        maybeRefresh();
        if (key == null) {
            return List.of();
        }
        long before = generation.get();
        // A copy on the heap answers as fast as the recent keys would: they front the disk copy only.
        boolean cacheable = recent != null && !refreshing && table.isOnDisk();
        if (cacheable) {
            List<RowData> hit = recent.get(key, before);
            if (hit != null) {
                metrics.lookedUp(hit.size(), true);
                return hit;
            }
        }
        List<InternalRow> rows = table.lookupEncoded(key);
        List<RowData> out;
        if (rows.isEmpty()) {
            out = List.of();
        } else {
            out = new ArrayList<>(rows.size());
            for (InternalRow r : rows) {
                out.add(new FlinkRowData(r));
            }
        }
        if (cacheable && !refreshing && generation.get() == before) {
            recent.put(key, before, out);
        }
        metrics.lookedUp(out.size(), false);
        return out;
    }

    private void maybeRefresh() {
        Throwable failed = refreshFailure;
        if (failed != null) {
            throw new IllegalStateException("Cannot refresh the lookup cache " + table + ": " + failed.getMessage(),
                    failed);
        }
        long now = System.currentTimeMillis();
        if (now < nextRefreshMillis) {
            return;
        }
        synchronized (refreshLock) {
            if (now < nextRefreshMillis) {
                return;
            }
            if (blacklist.forbids(now)) {
                nextRefreshMillis = blacklist.allowedFrom(now);
                LOG.info("Lookup cache {}: no refresh until {} (lookup.refresh.time-periods-blacklist)", table,
                        java.time.Instant.ofEpochMilli(nextRefreshMillis));
                return;
            }
            nextRefreshMillis = now + refreshIntervalMillis;
            boolean partitions = now >= nextPartitionRefreshMillis;
            if (partitions) {
                nextPartitionRefreshMillis = now + partitionIntervalMillis;
            }
            if (!asyncRefresh) {
                refreshNow(partitions);
                return;
            }
            if (runningRefresh == null || runningRefresh.isDone()) {
                runningRefresh = refresher.submit(() -> {
                    try {
                        refreshNow(partitions);
                    } catch (Throwable t) {
                        refreshFailure = t;
                    }
                });
            }
            if (table.pendingSnapshots() > pendingSnapshotLimit) {
                awaitRefresh();
            }
        }
    }

    private void awaitRefresh() {
        try {
            runningRefresh.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the refresh of lookup cache " + table, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot refresh the lookup cache " + table, e.getCause());
        }
    }

    private void refreshNow(boolean partitions) {
        refreshing = true;
        boolean changed = false;
        long started = System.nanoTime();
        try {
            if (partitions) {
                changed = table.refreshPartitions();
            }
            changed |= table.refresh();
        } finally {
            if (changed) {
                generation.incrementAndGet();
            }
            refreshing = false;
            metrics.refreshed((System.nanoTime() - started) / 1_000_000, table.snapshotId());
        }
    }

    /** Bytes of local disk the cache uses now. */
    long diskBytes() {
        return table.diskBytes();
    }

    @Override
    public void close() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
        metrics.closed();
        table.close();
        deleteDirectory(directory);
    }

    /** Removes the task's cache directory once its stores deleted their files (best effort). */
    private static void deleteDirectory(Path directory) {
        try {
            java.nio.file.Files.deleteIfExists(directory);
        } catch (java.io.IOException e) {
            LOG.warn("Cannot delete the lookup cache directory {}: {}", directory, e.toString());
        }
    }
}
