package dev.streamhouse.storage.lifecycle;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.operation.SnapshotEntries;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Expires old snapshots of one table and deletes the files only they needed (Paimon's
 * {@code snapshot.*} retention; which snapshots: {@link ExpireRange}).
 *
 * <p>A file is deleted only if no retained snapshot, no tagged snapshot ({@link TaggedSnapshots}),
 * no long-lived changelog ({@code changelog/}) and no live consumer needs it. Because a file never
 * comes back once a snapshot dropped it, the retained snapshots need exactly the files the first
 * retained one needs plus newer ones; so only that snapshot, the tags and the deltas of the expired
 * range are read.
 *
 * <p>Order of one run over {@code [earliest, end)}, chosen so that readers and later runs stay safe:
 * <ol>
 *   <li>compute what to delete, reading the expired snapshots; nothing is deleted yet;
 *   <li>point {@code EARLIEST} at {@code end}: readers that start from the earliest snapshot start
 *       there, never at a snapshot whose files are about to go (unlike apache/paimon#6978);
 *   <li>delete data, changelog and index files, then manifests, manifest lists and statistics;
 *   <li>delete the snapshot files, oldest first, so the remaining ones stay contiguous.
 * </ol>
 * If a run fails part way, every expired snapshot file still exists (or a contiguous tail of them),
 * so the next run finds them by listing, skips the metadata already deleted, and finishes the job.
 * A reader still positioned at an expired snapshot gets
 * {@link dev.streamhouse.storage.snapshot.ExpiredSnapshotException}.
 *
 * <p>Errors: any I/O failure is an {@link IOException} naming the table and the file; snapshots and
 * files not yet deleted stay. Not thread-safe; two concurrent runs on one table are safe (each only
 * deletes what neither's retained snapshots need) but may report failures for files the other deleted.
 */
public final class SnapshotExpiration {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotExpiration.class);

    private final FileIO fileIO;
    private final Path tableRoot;
    private final SnapshotManager snapshots;
    private final SnapshotReferences references;
    private final TaggedSnapshots tags;
    private final TaggedSnapshots longLivedChangelogs;
    private final ConsumerProtection consumers;
    private final LongSupplier clockMillis;
    private final String tableName;

    /**
     * @param tags the snapshots whose files must stay although they may expire
     * @param clockMillis the current time (for retention by time and consumer expiration)
     */
    public SnapshotExpiration(FileIO fileIO, TablePaths paths, SnapshotManager snapshots, ManifestList manifestList,
            ManifestFile manifestFile, IndexManifestFile indexManifestFile, SnapshotEntries entries,
            TaggedSnapshots tags, LongSupplier clockMillis, String tableName) {
        Path tableRoot = paths.root();
        this.fileIO = fileIO;
        this.tableRoot = tableRoot;
        this.snapshots = snapshots;
        this.references = new SnapshotReferences(paths, manifestList, manifestFile, indexManifestFile, entries);
        this.tags = tags;
        this.longLivedChangelogs = TaggedSnapshots.inDirectory(fileIO, new Path(tableRoot, "changelog"), "changelog-");
        this.consumers = new ConsumerProtection(fileIO, tableRoot, tableName);
        this.clockMillis = clockMillis;
        this.tableName = tableName;
    }

    /** Deletes the consumers that {@code consumer.expiration-time} expired; returns how many. */
    public int expireConsumers(ExpireConfig config) throws IOException {
        return consumers.expireConsumers(clockMillis.getAsLong(), config.consumerExpiration());
    }

    /**
     * Expires the snapshots {@code config} no longer retains (at most {@code config.maxDeletes()}).
     *
     * @return how many snapshots expired
     */
    public int expire(ExpireConfig config) throws IOException {
        Long latest = snapshots.latestSnapshotId();
        Long earliest = latest == null ? null : earliest();
        if (latest == null || earliest == null) {
            return 0;
        }
        long now = clockMillis.getAsLong();
        ExpireRange range = ExpireRange.of(snapshots, earliest, latest, config,
                now - config.timeRetained().toMillis(), consumers.minNextSnapshot(now, config.consumerExpiration()));
        if (range.count() == 0) {
            return 0;
        }
        FileSet unreferenced = unreferencedFiles(range);
        snapshots.commitEarliestHint(range.end());
        deleteAll(unreferenced.contentFiles, range);
        deleteAll(unreferenced.manifests, range);
        deleteAll(unreferenced.manifestLists, range);
        deleteAll(unreferenced.statistics, range);
        for (long id = range.earliest(); id < range.end(); id++) {
            delete(snapshots.snapshotPath(id), range);
        }
        if (config.cleanEmptyDirectories()) {
            cleanEmptyDirectories(unreferenced.contentFiles);
        }
        LOG.info("Expired snapshots {}..{} of table {} ({} files deleted)", range.earliest(), range.end() - 1,
                tableName, unreferenced.size());
        return (int) range.count();
    }

    /**
     * The real oldest snapshot: the {@code EARLIEST} hint, unless an interrupted run left older
     * snapshot files behind it, which are then expired again.
     */
    private Long earliest() throws IOException {
        Long hinted = snapshots.earliestSnapshotId();
        if (hinted == null || hinted <= 1 || !snapshots.snapshotExists(hinted - 1)) {
            return hinted;
        }
        List<Long> ids = snapshots.listSnapshotIds();
        return ids.isEmpty() ? null : ids.get(0);
    }

    /** What only the snapshots of {@code range} need: their files minus what anything retained needs. */
    private FileSet unreferencedFiles(ExpireRange range) throws IOException {
        FileSet out = new FileSet();
        for (long id = range.earliest(); id < range.end(); id++) {
            Snapshot expired = snapshots.snapshot(id);
            references.addMetadata(expired, out, false, true);
            if (id > range.earliest()) {
                references.applyDelta(expired, out.contentFiles, false);
            }
        }
        Snapshot firstRetained = snapshots.snapshot(range.end());
        references.applyDelta(firstRetained, out.contentFiles, true);

        FileSet kept = new FileSet();
        references.addMetadata(firstRetained, kept, true, true);
        for (Snapshot tagged : tags.snapshots()) {
            // A tag of a retained snapshot needs nothing that the first retained snapshot does not.
            if (tagged.id() < range.end()) {
                references.addMetadata(tagged, kept, true, true);
                references.addLiveDataFiles(tagged, kept);
            }
        }
        for (Snapshot changelog : longLivedChangelogs.snapshots()) {
            // Kept for Paimon's readers; their files are theirs to expire (expire_changelogs).
            references.addMetadata(changelog, kept, false, true);
            references.addDeltaFiles(changelog, kept.contentFiles);
        }
        out.removeAll(kept);
        return out;
    }

    private void deleteAll(Set<Path> files, ExpireRange range) throws IOException {
        for (Path file : files) {
            delete(file, range);
        }
    }

    private void delete(Path file, ExpireRange range) throws IOException {
        try {
            fileIO.delete(file, false);
        } catch (IOException e) {
            throw new IOException("Cannot expire snapshots " + range.earliest() + ".." + (range.end() - 1)
                    + " of table " + tableName + ": deleting " + file + " failed (" + e.getMessage()
                    + "); nothing a retained snapshot needs was deleted, the next expiration finishes the job", e);
        }
    }

    /** Removes the bucket and partition directories of deleted data files that are now empty. */
    private void cleanEmptyDirectories(Set<Path> deletedFiles) {
        Set<Path> dirs = new LinkedHashSet<>();
        for (Path f : deletedFiles) {
            Path parent = f.parent();
            if (parent != null && parent.name().startsWith("bucket-")) {
                dirs.add(parent);
            }
        }
        for (Path dir : dirs) {
            Path current = dir;
            while (current != null && !current.equals(tableRoot) && isUnder(current)) {
                try {
                    if (!fileIO.list(current).isEmpty() || !fileIO.delete(current, false)) {
                        break;
                    }
                } catch (IOException e) {
                    LOG.debug("Cannot remove empty directory {} of table {}: {}", current, tableName, e.toString());
                    break;
                }
                current = current.parent();
            }
        }
    }

    private boolean isUnder(Path dir) {
        String root = tableRoot.toString();
        return dir.toString().startsWith(root.endsWith("/") ? root : root + "/");
    }
}
