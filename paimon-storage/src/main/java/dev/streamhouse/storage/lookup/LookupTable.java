package dev.streamhouse.storage.lookup;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.ProjectedRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.partition.ScanPartitions;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.Partition;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.TableRead;
import dev.streamhouse.storage.table.source.TableScan;
import dev.streamhouse.storage.types.RowType;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A local copy of a table, indexed by a join key, that follows the table's new snapshots: what a
 * lookup join probes. Engine-neutral; the Flink lookup functions drive it.
 *
 * <p><b>Contents.</b> The rows of the latest snapshot that pass the filter (and, with
 * {@code scan.partitions}, lie in the selected partitions), with the columns the join outputs plus
 * those the cache itself needs ({@link CacheColumns}: join key, primary key, sequence fields, filter
 * columns). How they are kept depends on the table ({@link CachedRows}): a primary-key table joined
 * on its whole key maps the key to its row; joined on other columns (or a part of the key) it also keeps an index from the join
 * key to the primary keys; an append table keeps every row under its join key. Rows live in
 * {@link LookupStores}: RocksDB on local disk, or the heap.
 *
 * <p><b>Following the table.</b> {@link #refresh()} applies the changes of each snapshot committed
 * since the last one read, in order: inserts and updates replace a key's row (with
 * {@code sequence.field} only a version that is not older), deletes remove it, and a row that no
 * longer passes the filter is removed. Compactions change nothing visible and are skipped. An
 * OVERWRITE snapshot, a snapshot that expired before it was read, or a change of the selected
 * partitions ({@link #refreshPartitions()}) makes the cache load the table anew: the new copy is
 * built beside the old one, which keeps serving lookups until the new one replaces it.
 *
 * <p><b>Threads.</b> {@link #lookup} may be called from many threads, concurrently with one thread
 * that calls {@link #refresh()} / {@link #refreshPartitions()}; a lookup during a refresh sees each
 * key either before or after its change.
 */
public final class LookupTable implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(LookupTable.class);

    /** Where the rows are kept. */
    public enum Store {
        /** RocksDB under the cache's directory. */
        DISK,
        /** The heap, without a limit. */
        HEAP,
        /** The heap while the rows fit in the memory budget, else (from then on) local disk. */
        HEAP_THEN_DISK
    }

    /**
     * Where and how the cache keeps its rows.
     *
     * @param store where the rows are kept
     * @param directory a directory of its own for the local files (deleted on close)
     * @param memoryBytes memory of the on-disk store (block cache and write buffers), and the heap
     *     budget of {@link Store#HEAP_THEN_DISK}
     * @param maxDiskBytes most bytes of local disk; a load or refresh beyond it fails, naming the option
     * @param loadThreads threads that read the table's splits when the cache is loaded
     */
    public record Settings(Store store, Path directory, long memoryBytes, long maxDiskBytes, int loadThreads) {}

    private final Table table;
    private final Settings settings;
    private final CacheColumns columns;
    /** The caller's filter over the table row (prunes files), or null; over cached rows it is {@code columns.rowFilter}. */
    private final Predicate tableFilter;
    private final boolean ignoreDeletes;
    private final ScanPartitions partitions;
    private final RowCodec keyCodec;
    private final ReadWriteLock swap = new ReentrantReadWriteLock();
    private final AtomicInteger loads = new AtomicInteger();

    private volatile Loaded loaded;
    /** Whether loads go to local disk: always for DISK, after the heap budget was exceeded for HEAP_THEN_DISK. */
    private volatile boolean onDisk;

    private LookupTable(Table table, int[] outputProjection, int[] joinKeys, Predicate filter, Settings settings) {
        this.table = table;
        this.settings = settings;
        Options options = table.schema().tableOptions();
        boolean primaryKey = !table.primaryKeys().isEmpty();
        if (joinKeys.length == 0) {
            throw new IllegalArgumentException("Cannot look up rows of table " + table.fullName()
                    + ": the join names no column of it");
        }
        if (primaryKey) {
            MergeFunctionFactory engine = MergeEngines.create(table.schema());
            if (!engine.latestChangeIsMergedRow()) {
                throw new UnsupportedOperationException("Cannot look up rows of table " + table.fullName()
                        + ": a lookup join follows only tables whose 'merge-engine' keeps the latest version "
                        + "(deduplicate), and this table's is '" + options.get(MergeTreeOptions.MERGE_ENGINE) + "'");
            }
        }
        this.columns = new CacheColumns(table, outputProjection, joinKeys, filter);
        this.tableFilter = filter;
        this.ignoreDeletes = primaryKey && options.get(MergeTreeOptions.IGNORE_DELETE);
        String selected = options.get(ScanOptions.SCAN_PARTITIONS);
        this.partitions = selected == null ? null : ScanPartitions.parse(selected, table.schema(), table.fullName());
        this.keyCodec = RowCodec.wholeRows(columns.readType.project(columns.joinPositions));
        this.onDisk = settings != null && settings.store() == Store.DISK;
    }

    /**
     * A cache of {@code table} for lookups by the columns {@code joinKeys} (table positions, in the
     * order lookup keys give them), returning rows of the columns {@code outputProjection}. Call
     * {@link #open()} before the first lookup.
     *
     * @param filter a predicate over the table row that cached rows must pass, or null
     * @throws IllegalArgumentException if the join names no column or {@code scan.partitions} is malformed
     * @throws UnsupportedOperationException if the table's merge engine cannot be followed
     */
    public static LookupTable create(Table table, int[] outputProjection, int[] joinKeys, Predicate filter,
            Settings settings) {
        return new LookupTable(table, outputProjection, joinKeys, filter, settings);
    }

    /**
     * Checks that a lookup of {@code table} by {@code joinKeys} can be served, without loading anything.
     *
     * @throws IllegalArgumentException if the join names no column or {@code scan.partitions} is malformed
     * @throws UnsupportedOperationException if the table's merge engine cannot be followed
     */
    public static void validate(Table table, int[] outputProjection, int[] joinKeys, Predicate filter) {
        new LookupTable(table, outputProjection, joinKeys, filter, null);
    }

    /** The type of the rows {@link #lookup} returns. */
    public RowType outputType() {
        return columns.readType.project(columns.outputPositions);
    }

    /** Loads the latest snapshot of the table. */
    public void open() {
        loaded = load();
    }

    /**
     * The rows whose join key equals {@code key} (the join-key values, in join-key order); empty when
     * a key value is NULL (SQL equality never holds for NULL).
     */
    public List<InternalRow> lookup(InternalRow key) {
        for (int i = 0; i < key.arity(); i++) {
            if (key.isNullAt(i)) {
                return List.of();
            }
        }
        return lookupEncoded(encodeKey(key));
    }

    /** The rows of a join key encoded by {@link #encodeKey} (of a key without NULLs). */
    public List<InternalRow> lookupEncoded(byte[] encodedKey) {
        List<byte[]> found;
        RowCodec values;
        swap.readLock().lock();
        try {
            found = loaded.rows.lookup(encodedKey);
            values = loaded.values;
        } finally {
            swap.readLock().unlock();
        }
        if (found.isEmpty()) {
            return List.of();
        }
        List<InternalRow> out = new ArrayList<>(found.size());
        for (byte[] row : found) {
            out.add(columns.outputIsPrefix ? values.decodePrefix(row, columns.outputPositions.length)
                    : new ProjectedRow(columns.outputPositions).replace(values.decode(row)));
        }
        return out;
    }

    /** A well-spread hash of an encoded key ({@link #encodeKey}), for callers that cache lookups by key. */
    public static int hashEncodedKey(byte[] encodedKey) {
        return KeyBytes.hash(encodedKey);
    }

    /** The encoding of a lookup key (join-key values in join-key order), e.g. for callers that cache lookups. */
    public byte[] encodeKey(InternalRow key) {
        return keyCodec.encode(key);
    }

    /**
     * Applies the changes of every snapshot committed since the last one read (or loads the table
     * anew, see the class doc).
     *
     * @return whether the cache changed (a snapshot was read)
     * @throws UncheckedIOException if the table cannot be read; the cache is unchanged for the
     *     snapshot that failed and the next refresh tries it again
     */
    public boolean refresh() {
        Loaded current = loaded;
        Long latest = table.latestSnapshot().map(Snapshot::id).orElse(null);
        if (latest == null || latest < current.nextSnapshot) {
            return false;
        }
        boolean changed = false;
        while (true) {
            long next = current.nextSnapshot;
            if (next > latest) {
                return changed;
            }
            Snapshot snapshot = table.snapshot(next).orElse(null);
            if (snapshot == null) {
                LOG.info("Lookup cache of table {}: snapshot {} expired before it was read; loading the table anew",
                        table.fullName(), next);
                reload();
                return true;
            }
            if (snapshot.commitKind() == CommitKind.OVERWRITE) {
                LOG.info("Lookup cache of table {}: snapshot {} overwrote data; loading the table anew",
                        table.fullName(), next);
                reload();
                return true;
            }
            TableScan.Plan plan;
            try {
                plan = current.changes.plan();
            } catch (ExpiredSnapshotException e) {
                LOG.info("Lookup cache of table {}: {}; loading the table anew", table.fullName(), e.getMessage());
                reload();
                return true;
            }
            if (plan.snapshotId() == null) {
                return changed;
            }
            if (current.readsRows) {
                try {
                    for (DataSplit split : plan.splits()) {
                        readSplit(current, split, true);
                    }
                } catch (HeapBudgetExceededException e) {
                    moveToDisk(e);
                    reload();
                    return true;
                }
            }
            current.nextSnapshot = current.changes.checkpoint();
            current.checkDisk();
            changed = true;
        }
    }

    /**
     * With a dynamic {@code scan.partitions} (max_pt()), chooses the partitions again and loads the
     * table anew if they changed.
     *
     * @return whether the selected partitions changed
     */
    public boolean refreshPartitions() {
        if (partitions == null || !partitions.isDynamic()) {
            return false;
        }
        List<BinaryRow> chosen = partitions.choose(partitionValues());
        if (chosen.equals(loaded.partitions)) {
            return false;
        }
        LOG.info("Lookup cache of table {}: 'scan.partitions' = '{}' now selects {} partitions; loading them",
                table.fullName(), partitions.text(), chosen.size());
        reload();
        return true;
    }

    private List<BinaryRow> partitionValues() {
        List<BinaryRow> values = new ArrayList<>();
        for (Partition p : table.partitions()) {
            values.add(p.row());
        }
        return values;
    }

    /** Snapshots committed that the cache has not read yet. */
    public long pendingSnapshots() {
        Long latest = table.latestSnapshot().map(Snapshot::id).orElse(null);
        return latest == null ? 0 : Math.max(0, latest - loaded.nextSnapshot + 1);
    }

    /** The id of the last snapshot the cache holds (0 for none). */
    public long snapshotId() {
        return loaded.nextSnapshot - 1;
    }

    /** Whether the rows are on local disk now (else on the heap). */
    public boolean isOnDisk() {
        return onDisk;
    }

    /** How often the table was loaded whole (1 after {@link #open()}). */
    public int loads() {
        return loads.get();
    }

    /** Bytes of local disk the cache uses now. */
    public long diskBytes() {
        return loaded.stores.diskBytes();
    }

    @Override
    public void close() {
        swap.writeLock().lock();
        try {
            if (loaded != null) {
                loaded.stores.close();
                loaded = null;
            }
        } finally {
            swap.writeLock().unlock();
        }
    }

    private void reload() {
        Loaded fresh = load();
        Loaded old;
        swap.writeLock().lock();
        try {
            old = loaded;
            loaded = fresh;
        } finally {
            swap.writeLock().unlock();
        }
        old.stores.close();
    }

    private void moveToDisk(HeapBudgetExceededException e) {
        LOG.info("Lookup cache of table {}: {} ('lookup.cache-max-memory-size'); keeping it on local disk in {} "
                + "from now on", table.fullName(), e.getMessage(), settings.directory());
        onDisk = true;
    }

    /** Loads the latest snapshot into new stores. */
    private Loaded load() {
        try {
            return loadOnce();
        } catch (HeapBudgetExceededException e) {
            moveToDisk(e);
            return loadOnce();
        }
    }

    private Loaded loadOnce() {
        int number = loads.incrementAndGet();
        LookupStores stores = onDisk
                ? LookupStores.onDisk(settings.directory().resolve("load-" + number), settings.memoryBytes())
                : LookupStores.onHeap(settings.store() == Store.HEAP ? Long.MAX_VALUE : settings.memoryBytes());
        try {
            List<BinaryRow> chosen = partitions != null && partitions.isDynamic()
                    ? partitions.choose(partitionValues()) : null;
            ReadBuilder builder = table.newReadBuilder().withProjection(columns.readPositions).withFilter(tableFilter);
            boolean readsRows = true;
            if (chosen != null) {
                Predicate selected = partitions.predicateOf(chosen).orElse(null);
                readsRows = selected != null;
                builder.withResolvedPartitions(selected);
            }
            long started = System.nanoTime();
            TableScan.Plan plan = builder.newScan().plan();
            Loaded fresh = new Loaded(stores, columns.newRows(stores, readsRows ? expectedRows(plan) : 0, table.fullName()), builder.newRead(),
                    chosen, readsRows);
            long snapshot = plan.snapshotId() == null ? 0 : plan.snapshotId();
            if (readsRows) {
                ParallelSplits.forEach(plan.splits(), settings.loadThreads(), "lookup-load-" + table.fullName(),
                        split -> readSplit(fresh, split, false));
            }
            stores.finishLoad();
            fresh.nextSnapshot = snapshot + 1;
            fresh.changes = builder.newStreamScan();
            fresh.changes.restore(fresh.nextSnapshot);
            fresh.checkDisk();
            LOG.info("Lookup cache of table {} loaded snapshot {} ({} splits) in {} ms into {}", table.fullName(),
                    snapshot, plan.splits().size(), (System.nanoTime() - started) / 1_000_000,
                    onDisk ? settings.directory() : "the heap");
            return fresh;
        } catch (RuntimeException | Error e) {
            stores.close();
            throw e;
        }
    }

    /** The rows the plan's files hold (an upper bound of the rows a load keeps). */
    private static long expectedRows(TableScan.Plan plan) {
        long rows = 0;
        for (DataSplit split : plan.splits()) {
            rows += split.rowCount();
        }
        return rows;
    }

    private void readSplit(Loaded target, DataSplit split, boolean changes) {
        try (RecordReader<InternalRow> reader = target.read.createReader(split)) {
            reader.forEachRemaining(row -> {
                boolean matches = columns.rowFilter == null || columns.rowFilter.test(row);
                if (!changes) {
                    if (matches) {
                        target.rows.load(row);
                    }
                } else if (!(ignoreDeletes && isRetraction(row.rowKind()))) {
                    target.rows.apply(row, matches);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read split " + split + " of table " + table.fullName()
                    + " into its lookup cache", e);
        }
    }

    private static boolean isRetraction(RowKind kind) {
        return kind == RowKind.DELETE || kind == RowKind.UPDATE_BEFORE;
    }

    /** One load of the table: its stores, and how far it has followed the snapshots. */
    private final class Loaded {
        final LookupStores stores;
        final CachedRows rows;
        final RowCodec values = RowCodec.wholeRows(columns.readType);
        final TableRead read;
        /** The partitions chosen by a dynamic {@code scan.partitions}, or null. */
        final List<BinaryRow> partitions;
        /** False when a dynamic {@code scan.partitions} selects nothing. */
        final boolean readsRows;
        StreamTableScan changes;
        long nextSnapshot;

        Loaded(LookupStores stores, CachedRows rows, TableRead read, List<BinaryRow> partitions, boolean readsRows) {
            this.stores = stores;
            this.rows = rows;
            this.read = read;
            this.partitions = partitions;
            this.readsRows = readsRows;
        }

        void checkDisk() {
            long used = stores.diskBytes();
            if (used > settings.maxDiskBytes()) {
                throw new IllegalStateException("Cannot keep the lookup cache of table " + table.fullName()
                        + ": it needs " + used + " bytes of local disk, more than option 'lookup.cache-max-disk-size' "
                        + "allows (" + settings.maxDiskBytes() + " bytes); raise it, or filter or project the joined "
                        + "table");
            }
        }
    }

    @Override
    public String toString() {
        return "LookupTable(" + table.fullName() + ", snapshot " + Objects.requireNonNullElse(
                loaded == null ? null : loaded.nextSnapshot - 1, "-") + ")";
    }
}
