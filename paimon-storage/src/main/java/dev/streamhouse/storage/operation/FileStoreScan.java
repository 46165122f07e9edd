package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.metrics.ScanListener;
import dev.streamhouse.storage.metrics.ScanStats;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Plans which files of a snapshot a read needs: by default its live files ({@link ScanMode#ALL}); for
 * streaming reads the files it added ({@link ScanMode#DELTA}) or its changelog files
 * ({@link ScanMode#CHANGELOG}). Prunes manifests by partition statistics and bucket ranges, entries by
 * exact partition and bucket, and files by their value statistics. Not thread-safe.
 */
public final class FileStoreScan {
    private final SnapshotManager snapshots;
    private final SnapshotEntries entries;
    private final IndexFileCheck indexFiles;
    private final FileStatsMapper statsMapper;
    private final String tableName;
    private TableFeatureCheck.Access access = TableFeatureCheck.Access.BATCH_READ;

    private Long snapshotId;
    private Long timestampMillis;
    private Snapshot fixedSnapshot;
    private Predicate partitionFilter;
    private Predicate valueFilter;
    private Integer bucket;
    private ScanMode mode = ScanMode.ALL;
    private java.util.function.IntPredicate levelFilter;
    private ScanListener listener = ScanListener.NONE;

    /** @param indexFiles checks a snapshot's index files before its files are planned */
    public FileStoreScan(SnapshotManager snapshots, SnapshotEntries entries, IndexFileCheck indexFiles,
            FileStatsMapper statsMapper, String tableName) {
        this.snapshots = snapshots;
        this.entries = entries;
        this.indexFiles = indexFiles;
        this.statsMapper = statsMapper;
        this.tableName = tableName;
    }

    /** Read this snapshot instead of the latest. */
    public FileStoreScan withSnapshot(long id) {
        this.snapshotId = id;
        this.timestampMillis = null;
        this.fixedSnapshot = null;
        return this;
    }

    /**
     * Read this snapshot as given, whether or not its file still exists (a tag's snapshot, whose
     * manifests and files the tag keeps alive).
     */
    public FileStoreScan withTaggedSnapshot(Snapshot snapshot) {
        this.fixedSnapshot = java.util.Objects.requireNonNull(snapshot, "snapshot");
        this.snapshotId = null;
        this.timestampMillis = null;
        return this;
    }

    /**
     * Read the latest snapshot committed at or before {@code timestampMillis} (epoch millis) instead of
     * the latest; planning fails with an {@link IllegalArgumentException} if every snapshot is younger.
     */
    public FileStoreScan withTimestampMillis(long timestampMillis) {
        this.timestampMillis = timestampMillis;
        this.snapshotId = null;
        this.fixedSnapshot = null;
        return this;
    }

    /** A predicate over the partition row (partition-key positions). */
    public FileStoreScan withPartitionFilter(Predicate predicate) {
        this.partitionFilter = predicate;
        return this;
    }

    /** A predicate over the table row, used to skip files by their value statistics. */
    public FileStoreScan withValueFilter(Predicate predicate) {
        this.valueFilter = predicate;
        return this;
    }

    /** Plan only files whose level passes {@code filter} (e.g. first-row batch reads skip level 0). */
    public FileStoreScan withLevelFilter(java.util.function.IntPredicate filter) {
        this.levelFilter = filter;
        return this;
    }

    /** Which files of the snapshot to plan; {@link ScanMode#ALL} by default. */
    public FileStoreScan withMode(ScanMode mode) {
        this.mode = java.util.Objects.requireNonNull(mode, "mode");
        return this;
    }

    /** Told what each {@link #plan()} that read a snapshot's manifests took. */
    public FileStoreScan withListener(ScanListener listener) {
        this.listener = java.util.Objects.requireNonNull(listener, "listener");
        return this;
    }

    /** The snapshots this scan reads from. */
    public SnapshotManager snapshotManager() {
        return snapshots;
    }

    /** What the planned files are for, as refusals of unsupported files say; a batch read by default. */
    public FileStoreScan forAccess(TableFeatureCheck.Access access) {
        this.access = java.util.Objects.requireNonNull(access, "access");
        return this;
    }

    public FileStoreScan withBucket(int bucket) {
        this.bucket = bucket;
        return this;
    }

    /** Plan only the files at this LSM level (e.g. the top level, for the read-optimized view). */
    public FileStoreScan withLevel(int level) {
        return withLevelFilter(l -> l == level);
    }

    /** The result: the snapshot read (empty for an empty table) and its selected files. */
    public record Plan(Optional<Snapshot> snapshot, List<ManifestEntry> files) {}

    /**
     * @throws dev.streamhouse.storage.UnsupportedTableFeatureException if the snapshot has deletion vectors or unknown index
     *     files, or a selected file cannot be read as it is (see {@link TableFeatureCheck})
     */
    public Plan plan() throws IOException {
        Optional<Snapshot> snapshot;
        if (fixedSnapshot != null) {
            snapshot = Optional.of(fixedSnapshot);
        } else if (snapshotId != null) {
            Long earliest = snapshots.earliestSnapshotId();
            if (earliest != null && snapshotId < earliest) {
                // Expired, or left behind EARLIEST by an expiration that runs or was interrupted: files may be gone.
                throw new dev.streamhouse.storage.snapshot.ExpiredSnapshotException(tableName, snapshotId,
                        earliest);
            }
            if (!snapshots.snapshotExists(snapshotId)) {
                throw new IllegalArgumentException("Cannot read snapshot " + snapshotId + " of table " + tableName
                        + ": it does not exist (expired or never committed); latest is " + snapshots.latestSnapshotId());
            }
            snapshot = Optional.of(snapshots.snapshot(snapshotId));
        } else if (timestampMillis != null) {
            snapshot = TimeTravel.latestAtOrBefore(snapshots, timestampMillis, tableName);
        } else {
            snapshot = snapshots.latestSnapshot();
        }
        if (snapshot.isEmpty()) {
            return new Plan(snapshot, List.of());
        }
        long started = System.nanoTime();
        indexFiles.check(snapshot.get().indexManifest(), access);
        ManifestFilter filter = new ManifestFilter(partitionFilter, null, bucket);
        List<ManifestEntry> selected = new ArrayList<>();
        ScanCounts counts = new ScanCounts();
        for (ManifestEntry e : files(snapshot.get(), filter, counts)) {
            if ((levelFilter == null || levelFilter.test(e.file().level()))
                    && (valueFilter == null || mayMatch(e.file()))) {
                selected.add(e);
            }
        }
        TableFeatureCheck.checkDataFiles(tableName, selected, access);
        listener.onScan(new ScanStats((System.nanoTime() - started) / 1_000_000, counts.manifests,
                counts.entries - selected.size(), selected.size()));
        return new Plan(snapshot, selected);
    }

    private List<ManifestEntry> files(Snapshot snapshot, ManifestFilter filter, ScanCounts counts)
            throws IOException {
        switch (mode) {
            case ALL:
                return entries.liveEntries(snapshot, filter, counts);
            case DELTA:
                List<ManifestEntry> added = new ArrayList<>();
                for (ManifestEntry e : entries.deltaEntries(snapshot, filter, counts)) {
                    if (e.kind() == FileKind.ADD) {
                        added.add(e);
                    } else {
                        counts.entries--; // a removal is not a file the plan could have selected
                    }
                }
                return added;
            case CHANGELOG:
                return entries.changelogEntries(snapshot, filter, counts);
            default:
                throw new IllegalStateException("Unknown scan mode " + mode);
        }
    }

    private boolean mayMatch(DataFileMeta file) {
        return statsMapper.mayMatch(valueFilter, file);
    }
}
