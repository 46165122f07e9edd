package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.VersionedFiles;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.tag.Tag;
import dev.streamhouse.storage.tag.TagManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Rolls a table back to a snapshot or a tag, as Apache Paimon 1.3.1's {@code rollback_to} does: the
 * snapshots after it, the long-lived changelog files ({@code changelog/changelog-<id>}) after it and
 * the tags of later snapshots are deleted, and {@code LATEST} points at it. Rolling back to a tag whose
 * snapshot has expired first writes that snapshot's file again from the tag (and {@code EARLIEST} with
 * it), before anything is deleted, so the table always has a snapshot.
 *
 * <p>Files: data, changelog, manifest and index files that only the removed snapshots used are not
 * deleted here, because a concurrent reader of a removed snapshot or a writer that still holds them
 * may need them and no check here can prove otherwise; they are unreferenced afterwards and orphan-file
 * cleanup ({@code remove_orphan_files}) removes them. The table reads correctly either way.
 *
 * <p>Concurrent writers: snapshots are deleted newest first, and the listing is repeated until no
 * snapshot after the target is left, so a commit that lands during the rollback is rolled back too.
 * A writer whose base snapshot was removed cannot publish on top of it:
 * {@link SnapshotManager#tryCommit} fails with a
 * {@link dev.streamhouse.storage.snapshot.BaseSnapshotRemovedException} (a
 * {@link CommitConflictException} for the committer), taking back a snapshot it published at the very
 * moment of the rollback. A writer that commits after the rollback finished builds on the target
 * snapshot, and conflicts if it deletes files the rollback removed from the table (compaction results).
 * Stop writers before a rollback anyway, as Paimon's documentation asks.
 *
 * <p>Errors: a missing target is an {@link IllegalArgumentException}; I/O failures are
 * {@link IOException}s, after which the rollback can be repeated (each step is idempotent).
 */
public final class Rollback {
    private static final Logger LOG = LoggerFactory.getLogger(Rollback.class);
    private static final int MAX_ROUNDS = 100;
    private static final String CHANGELOG_PREFIX = "changelog-";

    private final FileIO fileIO;
    private final SnapshotManager snapshots;
    private final TagManager tags;
    private final String tableName;

    public Rollback(FileIO fileIO, SnapshotManager snapshots, TagManager tags, String tableName) {
        this.fileIO = fileIO;
        this.snapshots = snapshots;
        this.tags = tags;
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

    /** Deletes snapshots, changelog files and tags after {@code id}, then points LATEST at {@code id}. */
    private void removeLaterThan(long id) throws IOException {
        for (int round = 0; ; round++) {
            List<Long> ids = snapshots.listSnapshotIds();
            if (ids.isEmpty() || ids.get(ids.size() - 1) <= id) {
                break;
            }
            if (round >= MAX_ROUNDS) {
                throw new IOException("Cannot roll back table " + tableName + " to snapshot " + id + ": writers keep "
                        + "committing new snapshots; stop them and retry the rollback");
            }
            for (int i = ids.size() - 1; i >= 0 && ids.get(i) > id; i--) {
                snapshots.deleteSnapshot(ids.get(i));
            }
        }
        snapshots.commitLatestHint(id);
        removeChangelogsLaterThan(id);
        for (TagManager.NamedTag t : tags.tags()) {
            if (t.tag().snapshot().id() > id) {
                tags.delete(t.name());
            }
        }
    }

    private void removeChangelogsLaterThan(long id) throws IOException {
        Path dir = new Path(snapshots.tableRoot(), "changelog");
        List<Long> ids = VersionedFiles.listIds(fileIO, dir, CHANGELOG_PREFIX);
        boolean removed = false;
        for (int i = ids.size() - 1; i >= 0 && ids.get(i) > id; i--) {
            fileIO.delete(new Path(dir, CHANGELOG_PREFIX + ids.get(i)), false);
            removed = true;
        }
        Path latestHint = new Path(dir, "LATEST");
        if (removed && fileIO.exists(latestHint)) {
            List<Long> left = VersionedFiles.listIds(fileIO, dir, CHANGELOG_PREFIX);
            if (left.isEmpty()) {
                fileIO.delete(latestHint, false);
            } else {
                fileIO.overwrite(latestHint,
                        Long.toString(left.get(left.size() - 1)).getBytes(StandardCharsets.US_ASCII));
            }
        }
    }
}
