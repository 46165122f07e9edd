package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Expires long-lived changelog entries ({@code changelog/changelog-<id>}, docs/format.md §10.3) and the files
 * only they needed: their changelog manifest lists, manifests and changelog files (or, for entries
 * read from their delta, the delta manifests and the data files it added, unless a retained snapshot
 * or a tag still needs them). Which entries: {@link ExpireRange} with the {@code changelog.*}
 * retention, counted up to the latest snapshot as Paimon does, never reaching the earliest snapshot.
 *
 * <p>Why the retained snapshots need only the earliest one checked: an entry's changelog files and
 * delta manifest list are its own; its delta manifests and added data files can only be shared with
 * the base of later snapshots, and a file dropped from a snapshot never comes back. Entries share no
 * files with each other (a delta only adds files its commit wrote).
 *
 * <p>Order of one run over {@code [earliest, end)}, so a concurrent reader never reads an entry whose
 * files are gone: compute what to delete (nothing deleted yet); point {@code changelog/EARLIEST} at
 * {@code end} (readers treat entries below it as expired); delete changelog and data files, then
 * manifests and manifest lists; delete the entry files oldest first. An interrupted run leaves entry
 * files below the hint, which the next run finds by listing and expires again (tolerating metadata
 * already deleted). Not thread-safe.
 */
final class ChangelogExpiration {
    private static final Logger LOG = LoggerFactory.getLogger(ChangelogExpiration.class);

    private final FileIO fileIO;
    private final SnapshotManager snapshots;
    private final ChangelogManager changelogs;
    private final SnapshotReferences references;
    private final TaggedSnapshots tags;
    private final String tableName;

    ChangelogExpiration(FileIO fileIO, SnapshotManager snapshots, ChangelogManager changelogs,
            SnapshotReferences references, TaggedSnapshots tags, String tableName) {
        this.fileIO = fileIO;
        this.snapshots = snapshots;
        this.changelogs = changelogs;
        this.references = references;
        this.tags = tags;
        this.tableName = tableName;
    }

    /**
     * Expires the entries the changelog retention of {@code config} no longer keeps (at most
     * {@code config.maxDeletes()}); returns how many.
     *
     * @param consumerNext the smallest next snapshot of the live consumers, or null
     */
    int expire(ExpireConfig config, long nowMillis, Long consumerNext) throws IOException {
        Long latestSnapshot = snapshots.latestSnapshotId();
        Long earliestSnapshot = snapshots.earliestSnapshotId();
        Long earliest = earliest();
        Long latest = changelogs.latestChangelogId();
        if (latestSnapshot == null || earliestSnapshot == null || earliest == null || latest == null) {
            return 0;
        }
        ExpireRange range = ExpireRange.of(this::timeMillis, earliest, latestSnapshot,
                Math.min(latest + 1, earliestSnapshot), config.changelogRetainMin(), config.changelogRetainMax(),
                config.maxDeletes(), nowMillis - config.changelogTimeRetained().toMillis(), consumerNext);
        return expire(range, earliestSnapshot);
    }

    /**
     * Expires every entry ({@code delete_all}) except those a live consumer still reads; returns how
     * many. Deletes the hints when none is left.
     */
    int expireAll(Long consumerNext) throws IOException {
        Long earliestSnapshot = snapshots.earliestSnapshotId();
        Long earliest = earliest();
        Long latest = changelogs.latestChangelogId();
        if (earliestSnapshot == null || earliest == null || latest == null) {
            return 0;
        }
        long end = Math.min(latest + 1, earliestSnapshot);
        if (consumerNext != null) {
            end = Math.min(end, consumerNext);
        }
        int expired = expire(new ExpireRange(earliest, Math.max(earliest, end)), earliestSnapshot);
        if (changelogs.listChangelogIds().isEmpty()) {
            changelogs.deleteHints();
        }
        return expired;
    }

    private long timeMillis(long id) throws IOException {
        // A gap (snapshots expired while changelogs were not decoupled) is expired with its neighbours.
        return changelogs.changelogExists(id) ? changelogs.changelog(id).timeMillis() : Long.MIN_VALUE;
    }

    /** The real oldest entry: below the hint if an interrupted run left entries behind it. */
    private Long earliest() throws IOException {
        List<Long> ids = changelogs.listChangelogIds();
        return ids.isEmpty() ? null : ids.get(0);
    }

    private int expire(ExpireRange range, long earliestSnapshot) throws IOException {
        if (range.count() == 0) {
            return 0;
        }
        List<Snapshot> expired = new ArrayList<>();
        for (long id = range.earliest(); id < range.end(); id++) {
            if (changelogs.changelogExists(id)) {
                expired.add(changelogs.changelog(id));
            }
        }
        FileSet unreferenced = unreferencedFiles(expired, earliestSnapshot);
        changelogs.commitEarliestHint(range.end());
        deleteAll(unreferenced.contentFiles, range);
        deleteAll(unreferenced.manifests, range);
        deleteAll(unreferenced.manifestLists, range);
        for (long id = range.earliest(); id < range.end(); id++) {
            delete(changelogs.changelogPath(id), range);
        }
        LOG.info("Expired long-lived changelogs {}..{} of table {} ({} files deleted)", range.earliest(),
                range.end() - 1, tableName, unreferenced.size());
        return expired.size();
    }

    private FileSet unreferencedFiles(List<Snapshot> expired, long earliestSnapshot) throws IOException {
        FileSet out = new FileSet();
        boolean deltaBased = false;
        for (Snapshot entry : expired) {
            references.addChangelogEntry(entry, out, false);
            deltaBased |= SnapshotReferences.deltaBased(entry);
        }
        FileSet kept = new FileSet();
        Snapshot firstRetained = snapshots.snapshot(earliestSnapshot);
        references.addMetadata(firstRetained, kept, true, true);
        if (deltaBased) {
            references.addLiveDataFiles(firstRetained, kept);
        }
        for (Snapshot tagged : tags.snapshots()) {
            if (tagged.id() < earliestSnapshot) {
                references.addMetadata(tagged, kept, true, true);
                if (deltaBased) {
                    references.addLiveDataFiles(tagged, kept);
                }
            }
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
            throw new IOException("Cannot expire the long-lived changelogs " + range.earliest() + ".."
                    + (range.end() - 1) + " of table " + tableName + ": deleting " + file + " failed ("
                    + e.getMessage() + "); nothing a retained snapshot, tag or changelog needs was deleted, the "
                    + "next expiration finishes the job", e);
        }
    }
}
