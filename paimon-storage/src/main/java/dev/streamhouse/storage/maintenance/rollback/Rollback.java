package dev.streamhouse.storage.maintenance.rollback;

import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.maintenance.expire.FileCleanup;
import dev.streamhouse.storage.maintenance.tag.Tag;
import dev.streamhouse.storage.maintenance.tag.TagManager;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Rolls a table back to a snapshot or a tag: the snapshots after it, the long-lived changelog entries
 * ({@code changelog/changelog-<id>}) after it and the tags of later snapshots are deleted, {@code LATEST}
 * points at it, and then the data, changelog, manifest, manifest-list, index (hash index, deletion
 * vectors) and statistics files that only the removed metadata used are deleted. Rolling back to a tag
 * whose snapshot has expired first writes that snapshot's file again from the tag (and {@code EARLIEST}
 * with it), before anything is deleted, so the table always has a snapshot.
 *
 * <p>Apache Paimon 1.3.1 (read from its bytecode): {@code rollbackTo} first asks the catalog
 * ({@code SnapshotManager.rollback}, which only a REST catalog implements); on a file-system catalog
 * {@code RollbackHelper.cleanLargerThan} points {@code LATEST} at the target, deletes the later snapshot
 * files newest first, then the later long-lived changelog entries (moving {@code changelog/LATEST}),
 * then the tag files of later snapshots, newest first; a rollback to a tag then writes the tag's
 * snapshot file if it is missing, and {@code EARLIEST} with it. It deletes no data, changelog, manifest
 * or index file: those are left to {@code remove_orphan_files}. A rollback to a snapshot id that no
 * longer exists goes to a tag of that id.
 *
 * <p>Here the files go as well, by one rule: a file is deleted only if no remaining snapshot, tag or
 * long-lived changelog entry references it (consumers protect snapshots and entries, and through them
 * their files). A later snapshot can name a file the target holds (a level-0 file upgraded to a higher
 * level keeps its name: DELETE at level 0 and ADD at level N in one delta); such a file stays. Which
 * files: {@link FileCleanup} (the table's is {@code UnusedFileCleanup}).
 *
 * <p>Order, so that readers never start on something whose files are going: what the removed metadata
 * references is read first (nothing is deleted yet; a failure here changes nothing); then the snapshot
 * files newest first, {@code LATEST}, the changelog entries and their hint, the tags; then the files.
 * The file step runs also when deleting metadata failed part way: it deletes only what nothing still on
 * disk references, so metadata that is still there keeps its files. Deleting the first snapshot file is
 * the point of no return: from then on the rollback does not fail for files, a file that cannot be
 * deleted is logged and left for {@code remove_orphan_files}. A failure while deleting metadata is an
 * {@link IOException}; running the rollback again finishes it (every step is idempotent).
 *
 * <p>Concurrent writers: snapshots are deleted newest first, and the listing is repeated until no
 * snapshot after the target is left, so a commit that lands during the rollback is rolled back too.
 * A writer whose base snapshot was removed cannot publish on top of it:
 * {@link SnapshotManager#tryCommit} fails with a
 * {@link dev.streamhouse.storage.snapshot.BaseSnapshotRemovedException} (a
 * {@link CommitConflictException} for the committer), taking back a snapshot it published at the very
 * moment of the rollback. A writer that commits after the rollback finished builds on the target
 * snapshot, and conflicts if it deletes files the rollback removed from the table (compaction results).
 * Stop writers before a rollback, as Paimon's documentation asks, and do not restore a job from a
 * checkpoint taken after the target: it would commit again files this rollback deleted.
 *
 * <p>Errors: a missing target is an {@link IllegalArgumentException}; I/O failures are
 * {@link IOException}s, after which the rollback can be repeated.
 */
public final class Rollback {
    private static final Logger LOG = LoggerFactory.getLogger(Rollback.class);
    private static final int MAX_ROUNDS = 100;

    private final FileIO fileIO;
    private final SnapshotManager snapshots;
    private final ChangelogManager changelogs;
    private final TagManager tags;
    private final FileCleanup cleanup;
    private final String tableName;

    /** @param cleanup deletes the files only the removed metadata used ({@link FileCleanup#NONE}: none) */
    public Rollback(FileIO fileIO, SnapshotManager snapshots, TagManager tags, FileCleanup cleanup,
            String tableName) {
        this.fileIO = fileIO;
        this.snapshots = snapshots;
        this.changelogs = new ChangelogManager(fileIO, snapshots.tableRoot());
        this.tags = tags;
        this.cleanup = cleanup;
        this.tableName = tableName;
    }

    /** What a rollback did: the latest snapshot before and the snapshot the table is at now. */
    public record Result(long previousSnapshotId, long currentSnapshotId) {}

    /**
     * Rolls back to snapshot {@code id}.
     *
     * @throws IllegalArgumentException if the table has no snapshot or snapshot {@code id} does not
     *     exist (roll back to a tag to reach an expired one)
     */
    public Result toSnapshot(long id) throws IOException {
        long previous = latestOrThrow();
        if (!snapshots.snapshotExists(id)) {
            throw new IllegalArgumentException("Cannot roll back table " + tableName + " to snapshot " + id
                    + ": it does not exist (retained snapshots: " + snapshots.earliestSnapshotId() + " to " + previous
                    + "); roll back to a tag to reach an expired snapshot");
        }
        removeLaterThan(id);
        return new Result(previous, id);
    }

    /**
     * Rolls back to the snapshot of tag {@code name}, writing that snapshot's file again if it expired.
     *
     * @throws IllegalArgumentException if the table has no snapshot or the tag does not exist
     */
    public Result toTag(String name) throws IOException {
        long previous = latestOrThrow();
        Tag tag = tags.tagOrThrow(name);
        Snapshot snapshot = tag.snapshot();
        if (snapshots.restoreSnapshot(snapshot)) {
            LOG.info("Rollback of table {} to tag '{}' wrote the expired snapshot {} again", tableName, name,
                    snapshot.id());
        }
        removeLaterThan(snapshot.id());
        Long earliest = snapshots.earliestSnapshotId();
        if (earliest != null && earliest == snapshot.id()) {
            snapshots.commitEarliestHint(snapshot.id());
        }
        return new Result(previous, snapshot.id());
    }

    private long latestOrThrow() throws IOException {
        Long latest = snapshots.latestSnapshotId();
        if (latest == null) {
            throw new IllegalArgumentException("Cannot roll back table " + tableName + ": it has no snapshot");
        }
        return latest;
    }

    /**
     * Deletes snapshots, changelog entries and tags after {@code id}, points LATEST at {@code id}, then
     * the files only they used.
     */
    private void removeLaterThan(long id) throws IOException {
        FileCleanup.Run files = cleanup.begin("rollback of table " + tableName + " to snapshot " + id);
        List<Long> removed = laterSnapshotIds(id);
        files.snapshots(read(removed));
        files.changelogEntries(laterChangelogEntries(id));
        List<String> laterTags = new ArrayList<>();
        List<Snapshot> tagged = new ArrayList<>();
        for (TagManager.NamedTag t : tags.tags()) {
            if (t.tag().snapshot().id() > id) {
                laterTags.add(t.name());
                tagged.add(t.tag().snapshot());
            }
        }
        files.tags(tagged);
        try {
            for (int round = 0; !removed.isEmpty(); round++) {
                if (round >= MAX_ROUNDS) {
                    throw new IOException("Cannot roll back table " + tableName + " to snapshot " + id + ": writers "
                            + "keep committing new snapshots; stop them and retry the rollback");
                }
                for (int i = removed.size() - 1; i >= 0; i--) {
                    snapshots.deleteSnapshot(removed.get(i));
                }
                // A commit that landed meanwhile is rolled back too (it was built on a removed snapshot).
                removed = laterSnapshotIds(id);
                files.snapshots(read(removed));
            }
            snapshots.commitLatestHint(id);
            removeChangelogsLaterThan(id);
            for (String name : laterTags) {
                fileIO.delete(tags.tagPath(name), false);
            }
        } finally {
            // Also after a failure: a delete whose outcome is unknown may have happened.
            files.finish();
        }
    }

    private List<Long> laterSnapshotIds(long id) throws IOException {
        List<Long> out = new ArrayList<>();
        for (Long later : snapshots.listSnapshotIds()) {
            if (later > id) {
                out.add(later);
            }
        }
        return out;
    }

    /** Snapshots {@code ids}, ascending; one that disappears meanwhile or is corrupt is left out. */
    private List<Snapshot> read(List<Long> ids) throws IOException {
        List<Snapshot> out = new ArrayList<>();
        for (Long later : ids) {
            read("snapshot " + later, () -> snapshots.snapshot(later), out);
        }
        return out;
    }

    private List<Snapshot> laterChangelogEntries(long id) throws IOException {
        List<Snapshot> out = new ArrayList<>();
        for (Long later : changelogs.listChangelogIds()) {
            if (later > id) {
                read("long-lived changelog entry " + later, () -> changelogs.changelog(later), out);
            }
        }
        return out;
    }

    private interface SnapshotRead {
        Snapshot read() throws IOException;
    }

    /**
     * Adds what {@code read} reads to {@code into}; one that disappeared meanwhile is left out, and so
     * is a corrupt one (it is removed all the same; the files it names are left for orphan cleanup).
     */
    private void read(String what, SnapshotRead read, List<Snapshot> into) throws IOException {
        try {
            into.add(read.read());
        } catch (FileNotFoundException goneMeanwhile) {
            // rolled back, expired or taken back by its writer meanwhile
        } catch (CorruptFileException e) {
            LOG.warn("Rollback of table {}: {} cannot be read; it is removed, and the files only it used are left "
                    + "for remove_orphan_files", tableName, what, e);
        }
    }

    /** Deletes the changelog entries after {@code id}, newest first, and fixes the hint. */
    private void removeChangelogsLaterThan(long id) throws IOException {
        List<Long> ids = changelogs.listChangelogIds();
        for (int i = ids.size() - 1; i >= 0 && ids.get(i) > id; i--) {
            changelogs.deleteChangelog(ids.get(i));
        }
        if (fileIO.exists(changelogs.latestHintPath())) {
            List<Long> left = changelogs.listChangelogIds();
            if (left.isEmpty()) {
                fileIO.delete(changelogs.latestHintPath(), false);
            } else {
                changelogs.commitLatestHint(left.get(left.size() - 1));
            }
        }
    }
}
