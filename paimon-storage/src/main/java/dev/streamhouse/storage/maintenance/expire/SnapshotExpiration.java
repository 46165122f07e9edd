package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.operation.SnapshotEntries;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Expires old snapshots of one table and deletes the files only they needed (Paimon's
 * {@code snapshot.*} retention; which snapshots: {@link ExpireRange}).
 *
 * <p>A file is deleted only if no retained snapshot, no tagged snapshot ({@link TaggedSnapshots}),
 * no long-lived changelog ({@code changelog/}) and no live consumer needs it. With the changelog
 * decoupled ({@link ExpireConfig#changelogDecoupled()}) an expiring snapshot becomes the long-lived
 * changelog entry {@code changelog/changelog-<id>}, written (with the {@code changelog/} hints) before
 * anything is deleted, and keeps the files its changes are read from; {@link #expireChangelogs}
 * removes those entries later ({@link ChangelogExpiration}). Because a file never
 * comes back once a snapshot dropped it, the retained snapshots need exactly the files the first
 * retained one needs plus newer ones; so only that snapshot, the tags and the deltas of the expired
 * range are read.
 *
 * <p>Order of one run over {@code [earliest, end)}, chosen so that readers and later runs stay safe:
 * <ol>
 *   <li>compute what to delete, reading the expired snapshots; nothing is deleted yet;
 *   <li>with the changelog decoupled, write their changelog entries;
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
    /** Files (data, changelog, manifests, manifest lists, statistics) the last {@link #expire} deleted. */
    private int lastFilesDeleted;
    private final Path tableRoot;
    private final SnapshotManager snapshots;
    private final SnapshotReferences references;
    private final TaggedSnapshots tags;
    private final ChangelogManager changelogs;
    private final ChangelogEntryReferences entryReferences;
    private final ChangelogExpiration changelogExpiration;
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
        this.changelogs = new ChangelogManager(fileIO, tableRoot);
        this.entryReferences = new ChangelogEntryReferences(changelogs, references);
        this.changelogExpiration = new ChangelogExpiration(fileIO, snapshots, changelogs, references, tags, tableName);
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
     * With the changelog decoupled ({@link ExpireConfig#changelogDecoupled()}) each expired snapshot
     * leaves its changelog behind as {@code changelog/changelog-<id>}, written before anything is
     * deleted, with the files that changelog needs.
     *
     * @return how many snapshots expired
     */
    public int expire(ExpireConfig config) throws IOException {
        lastFilesDeleted = 0;
        Long latest = snapshots.latestSnapshotId();
        Long earliest = latest == null ? null : earliest();
        if (latest == null || earliest == null) {
            return 0;
        }
        long now = clockMillis.getAsLong();
        ExpireRange range = ExpireRange.of(id -> snapshots.snapshot(id).timeMillis(), earliest, latest,
                Long.MAX_VALUE, config.retainMin(), config.retainMax(), config.maxDeletes(),
                now - config.timeRetained().toMillis(), consumers.minNextSnapshot(now, config.consumerExpiration()));
        if (range.count() == 0) {
            // As Apache Paimon 1.3 does: an expiration that finds nothing to expire still leaves the
            // EARLIEST hint behind when there is none, so a table has it from its first commit on.
            if (!fileIO.exists(snapshots.earliestHintPath())) {
                snapshots.commitEarliestHint(earliest);
            }
            return 0;
        }
        List<Snapshot> expired = new ArrayList<>();
        for (long id = range.earliest(); id < range.end(); id++) {
            expired.add(snapshots.snapshot(id));
        }
        boolean keepChangelog = config.changelogDecoupled();
        FileSet unreferenced = unreferencedFiles(range, expired, keepChangelog);
        if (keepChangelog) {
            for (Snapshot s : expired) {
                changelogs.commitChangelog(s);
            }
            changelogs.commitLatestHint(range.end() - 1);
            if (!fileIO.exists(changelogs.earliestHintPath())) {
                changelogs.commitEarliestHint(range.earliest());
            }
        }
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
        lastFilesDeleted = unreferenced.size();
        LOG.info("Expired snapshots {}..{} of table {} ({} files deleted{})", range.earliest(), range.end() - 1,
                tableName, unreferenced.size(), keepChangelog ? ", changelogs kept in changelog/" : "");
        return (int) range.count();
    }

    /** Files the last {@link #expire} deleted with the snapshots (0 when it expired none). */
    public int lastFilesDeleted() {
        return lastFilesDeleted;
    }

    /**
     * Expires the long-lived changelogs the {@code changelog.*} retention of {@code config} no longer
     * keeps (at most {@code config.maxDeletes()}); see {@link ChangelogExpiration}.
     *
     * @return how many changelogs expired
     */
    public int expireChangelogs(ExpireConfig config) throws IOException {
        long now = clockMillis.getAsLong();
        return changelogExpiration.expire(config, now, consumers.minNextSnapshot(now, config.consumerExpiration()));
    }

    /**
     * Expires every long-lived changelog ({@code expire_changelogs} with {@code delete_all}) that no
     * live consumer still reads.
     *
     * @return how many changelogs expired
     */
    public int expireAllChangelogs(ExpireConfig config) throws IOException {
        return changelogExpiration.expireAll(
                consumers.minNextSnapshot(clockMillis.getAsLong(), config.consumerExpiration()));
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

    /**
     * What only the snapshots of {@code range} need: their files minus what anything retained needs
     * (with {@code keepChangelog}, including what their changelog entries will need).
     */
    private FileSet unreferencedFiles(ExpireRange range, List<Snapshot> expired, boolean keepChangelog)
            throws IOException {
        FileSet out = new FileSet();
        for (Snapshot s : expired) {
            references.addMetadata(s, out, false, true);
            if (s.id() > range.earliest()) {
                references.applyDelta(s, out.contentFiles, false);
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
        if (keepChangelog) {
            for (Snapshot s : expired) {
                references.addChangelogEntry(s, kept, false);
            }
        }
        for (FileSet entry : entryReferences.current()) {
            kept.addAll(entry);
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
