package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.append.AppendCompactPlanner;
import dev.streamhouse.storage.append.UnawarePartitionCompactions;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.operation.ScanMode;
import dev.streamhouse.storage.operation.TableFeatureCheck;
import dev.streamhouse.storage.options.CompactionTuningOptions;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans the compactions of a bucket-unaware append table ({@code bucket} = -1) while a streaming job
 * writes it, as Apache Paimon 1.3.1's compaction coordinator does: it follows the table's snapshots
 * and keeps, per partition, the committed files smaller than 70 % of {@code target-file-size}
 * ({@link UnawarePartitionCompactions}); whenever it saw new ones it plans every partition and hands
 * out {@link AppendCompactTask}s, which {@link AppendCompactWorker}s run and the job's committer
 * commits as COMPACT snapshots.
 *
 * <p>The first {@link #run()} reads the live files of the latest snapshot; each later one reads the
 * files the following snapshots added (their delta, compaction outputs included), as far as they go.
 * It only ever sees committed files, so it never plans another writer's files in flight; a planned
 * file leaves its state, so no file is in two tasks. A concurrent compaction of the same files
 * (another job, {@code CALL sys.compact}) makes one of the two commits fail with a conflict. It keeps
 * no state a restarted job needs: a new coordinator starts again from the latest snapshot. If the
 * next snapshot to read has expired, it goes on from the earliest one left (files added in between
 * are then only planned after a restart).
 *
 * <p>Not thread-safe: one thread plans. Errors: {@link IOException} if snapshots or manifests cannot
 * be read (a later call retries from the same snapshot).
 */
public final class AppendCompactCoordinator {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(AppendCompactCoordinator.class);

    private final FileStoreTable table;
    private final AppendCompactPlanner planner;
    private final long compactionFileSize;
    private final Map<BinaryRow, UnawarePartitionCompactions> partitions = new LinkedHashMap<>();
    /** The next snapshot whose delta to read; null before the first read of the latest snapshot. */
    private Long nextSnapshot;

    private AppendCompactCoordinator(FileStoreTable table) {
        this.table = table;
        Options options = table.schema().tableOptions();
        long targetFileSize = FileFormatOptions.targetFileSizeBytes(options, false);
        this.planner = new AppendCompactPlanner(targetFileSize,
                options.get(CompactionTuningOptions.COMPACTION_MIN_FILE_NUM),
                options.get(ScanOptions.SOURCE_SPLIT_OPEN_FILE_COST).bytes(),
                options.get(CompactionTuningOptions.COMPACTION_FORCE_REWRITE_ALL_FILES));
        this.compactionFileSize = targetFileSize / 10 * 7;
    }

    /**
     * Whether a streaming write job of {@code table} compacts it with a coordinator: an append table
     * with {@code bucket} = -1 that is not {@code write-only} (fixed-bucket tables are compacted by
     * their writers, primary-key tables by their LSM writers).
     */
    public static boolean compactsStreamingWrites(Table table) {
        return !table.schema().hasPrimaryKey() && table.schema().numBuckets() == -1
                && !table.schema().tableOptions().get(MergeTreeOptions.WRITE_ONLY);
    }

    /**
     * A coordinator of {@code table}.
     *
     * @throws IllegalArgumentException if the table is not a bucket-unaware append table
     * @throws UnsupportedOperationException if it is not stored in the Paimon format
     */
    public static AppendCompactCoordinator of(Table table) {
        FileStoreTable store = CompactionBuckets.fileStoreTable(table, "plan compactions of");
        if (store.schema().hasPrimaryKey() || store.schema().numBuckets() != -1) {
            throw new IllegalArgumentException("Cannot plan append compactions of table " + table.fullName()
                    + ": it is not an append table with 'bucket' = -1");
        }
        return new AppendCompactCoordinator(store);
    }

    /**
     * Reads the snapshots committed since the last call and, if they added small files, plans every
     * partition; the tasks returned are handed out for good. Empty if nothing new was committed or
     * nothing is worth rewriting yet.
     */
    public List<AppendCompactTask> run() throws IOException {
        Map<BinaryRow, List<DataFileMeta>> added = scan();
        if (added.isEmpty()) {
            return List.of();
        }
        for (Map.Entry<BinaryRow, List<DataFileMeta>> e : added.entrySet()) {
            partitions.computeIfAbsent(e.getKey(), p -> new UnawarePartitionCompactions(planner))
                    .addFiles(e.getValue());
        }
        List<AppendCompactTask> tasks = new ArrayList<>();
        Iterator<Map.Entry<BinaryRow, UnawarePartitionCompactions>> it = partitions.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<BinaryRow, UnawarePartitionCompactions> e = it.next();
            for (List<DataFileMeta> group : e.getValue().plan()) {
                tasks.add(new AppendCompactTask(e.getKey(), group));
            }
            if (e.getValue().readyToRemove()) {
                it.remove();
            }
        }
        return tasks;
    }

    /** The small files added by the snapshots not read yet, by partition (partitions with none included). */
    private Map<BinaryRow, List<DataFileMeta>> scan() throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        Map<BinaryRow, List<DataFileMeta>> out = new HashMap<>();
        if (nextSnapshot == null) {
            Long latest = snapshots.latestSnapshotId();
            if (latest == null) {
                return out;
            }
            collect(latest, ScanMode.ALL, out);
            nextSnapshot = latest + 1;
        }
        Long earliest = snapshots.earliestSnapshotId();
        if (earliest != null && nextSnapshot < earliest) {
            LOG.warn("Snapshots {} to {} of table {} expired before the compaction coordinator read them; going on "
                    + "from snapshot {}", nextSnapshot, earliest - 1, table.fullName(), earliest);
            nextSnapshot = earliest;
        }
        while (snapshots.snapshotExists(nextSnapshot)) {
            collect(nextSnapshot, ScanMode.DELTA, out);
            nextSnapshot++;
        }
        return out;
    }

    private void collect(long snapshotId, ScanMode mode, Map<BinaryRow, List<DataFileMeta>> out) throws IOException {
        List<ManifestEntry> files = table.newFileStoreScan().forAccess(TableFeatureCheck.Access.WRITE)
                .withSnapshot(snapshotId).withMode(mode).plan().files();
        for (ManifestEntry e : files) {
            List<DataFileMeta> partition = out.computeIfAbsent(e.partition().copy(), p -> new ArrayList<>());
            if (e.file().fileSize() < compactionFileSize) {
                partition.add(e.file());
            }
        }
    }
}
