package dev.streamhouse.storage.snapshot;

import dev.streamhouse.storage.UnsupportedTableFeatureException;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.VersionedFiles;
import dev.streamhouse.storage.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads and publishes the snapshots of one table, {@code <table>/snapshot/snapshot-<id>}, and keeps
 * the {@code LATEST}/{@code EARLIEST} hint files (docs/format.md §4).
 *
 * <p>Publishing ({@link #tryCommit}) is a create-if-absent of the next snapshot file: of several
 * committers racing for the same id exactly one wins. Hints are best-effort overwrites and may be
 * stale or missing; {@link #latestSnapshotId()} and {@link #earliestSnapshotId()} verify them as
 * Paimon does (§4.4) and otherwise list the directory. This class deletes a snapshot only in
 * {@link #deleteSnapshot} (rollback) and when it takes back its own publish after a rollback.
 *
 * <p>Deleting snapshots: expiration must delete snapshot files oldest first (as Paimon does), and only
 * a rollback deletes the newest ones. {@link #tryCommit} relies on it: a new snapshot whose predecessor
 * is gone while an older snapshot still exists was built on a snapshot a rollback removed, and is
 * refused (see {@link BaseSnapshotRemovedException}).
 *
 * <p>Errors: I/O failures are {@link IOException}s (for {@link #tryCommit} an I/O failure means the
 * outcome is unknown); a missing snapshot asked for by id is a {@link FileNotFoundException}; an
 * unreadable one a {@link CorruptSnapshotException}; all name the file and the table. Thread-safe.
 */
public final class SnapshotManager {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotManager.class);
    private static final String SNAPSHOT_PREFIX = "snapshot-";
    private static final String LATEST = "LATEST";
    private static final String EARLIEST = "EARLIEST";
    private static final int HINT_READ_ATTEMPTS = 3;

    private final FileIO fileIO;
    private final Path tableRoot;
    private final SnapshotPublisher publisher;

    /** Snapshots published with the file IO's create-if-absent. */
    public SnapshotManager(FileIO fileIO, Path tableRoot) {
        this(fileIO, tableRoot, SnapshotPublisher.createIfAbsent(fileIO));
    }

    /** @param publisher how {@link #tryCommit} makes a new snapshot file visible */
    public SnapshotManager(FileIO fileIO, Path tableRoot, SnapshotPublisher publisher) {
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.tableRoot = Objects.requireNonNull(tableRoot, "tableRoot");
        this.publisher = Objects.requireNonNull(publisher, "publisher");
    }

    public Path tableRoot() {
        return tableRoot;
    }

    public Path snapshotDirectory() {
        return new Path(tableRoot, "snapshot");
    }

    public Path snapshotPath(long id) {
        return new Path(snapshotDirectory(), SNAPSHOT_PREFIX + id);
    }

    public Path latestHintPath() {
        return new Path(snapshotDirectory(), LATEST);
    }

    public Path earliestHintPath() {
        return new Path(snapshotDirectory(), EARLIEST);
    }

    public boolean snapshotExists(long id) throws IOException {
        return fileIO.exists(snapshotPath(id));
    }

    /**
     * The id of the newest snapshot, or null if there is none: {@code LATEST} if it holds {@code h > 0},
     * {@code snapshot-h} exists and {@code snapshot-(h+1)} does not, else the highest id found by
     * listing. (A hint can name a missing snapshot when two committers' overwrites of it interleave on
     * a file system without atomic overwrite.)
     */
    public Long latestSnapshotId() throws IOException {
        Long hint = readHint(latestHintPath());
        if (hint != null && hint > 0 && snapshotExists(hint) && !snapshotExists(hint + 1)) {
            return hint;
        }
        List<Long> ids = listSnapshotIds();
        return ids.isEmpty() ? null : ids.get(ids.size() - 1);
    }

    /**
     * The id of the oldest snapshot, or null if there is none: {@code EARLIEST} if that snapshot exists,
     * else the lowest id found by listing.
     */
    public Long earliestSnapshotId() throws IOException {
        Long hint = readHint(earliestHintPath());
        if (hint != null && snapshotExists(hint)) {
            return hint;
        }
        List<Long> ids = listSnapshotIds();
        return ids.isEmpty() ? null : ids.get(0);
    }

    /** Ids of all snapshot files, ascending (hints, temp and foreign files ignored). */
    public List<Long> listSnapshotIds() throws IOException {
        return VersionedFiles.listIds(fileIO, snapshotDirectory(), SNAPSHOT_PREFIX);
    }

    /** The hint's id, or null if absent or unreadable after a few attempts (it may be mid-overwrite). */
    private Long readHint(Path hint) {
        for (int attempt = 1; attempt <= HINT_READ_ATTEMPTS; attempt++) {
            try {
                if (!fileIO.exists(hint)) {
                    return null;
                }
                return Long.parseLong(fileIO.readUtf8(hint).trim());
            } catch (FileNotFoundException e) {
                return null;
            } catch (IOException | NumberFormatException e) {
                LOG.debug("Cannot read hint file {} of table {} (attempt {}): {}", hint, tableRoot, attempt, e.toString());
            }
        }
        return null;
    }

    /** Reads snapshot {@code id}. */
    public Snapshot snapshot(long id) throws IOException {
        Path path = snapshotPath(id);
        String json;
        try {
            json = fileIO.readUtf8(path);
        } catch (FileNotFoundException e) {
            FileNotFoundException missing = new FileNotFoundException(
                    "Cannot read snapshot " + id + " of table " + tableRoot + ": file " + path
                            + " does not exist (it may have been expired)");
            missing.initCause(e);
            throw missing;
        }
        Snapshot snapshot;
        try {
            snapshot = SnapshotSerializer.fromJson(json);
        } catch (UnsupportedTableFeatureException e) {
            throw new UnsupportedTableFeatureException("Cannot read snapshot file " + path + " of table " + tableRoot
                    + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw corrupt(path, e.getMessage(), e);
        }
        if (snapshot.id() != id) {
            throw corrupt(path, "it holds snapshot id " + snapshot.id(), null);
        }
        return snapshot;
    }

    private CorruptSnapshotException corrupt(Path path, String why, Throwable cause) {
        return new CorruptSnapshotException(path, "Cannot read snapshot file " + path + " of table " + tableRoot
                + ": " + why + "; the file is corrupt, restore it from a backup", cause);
    }

    /** The newest snapshot, or empty if the table has none. */
    public Optional<Snapshot> latestSnapshot() throws IOException {
        Long id = latestSnapshotId();
        return id == null ? Optional.empty() : Optional.of(snapshot(id));
    }

    /** The oldest snapshot, or empty if the table has none. */
    public Optional<Snapshot> earliestSnapshot() throws IOException {
        Long id = earliestSnapshotId();
        return id == null ? Optional.empty() : Optional.of(snapshot(id));
    }

    /**
     * Publishes {@code snapshot} as {@code snapshot-<id>} through the {@link SnapshotPublisher}
     * (create-if-absent by default), then (best effort) points {@code LATEST} at it.
     *
     * @return true if published; false if {@code snapshot-<id>} already exists (another committer won:
     *     refresh and retry on top of it)
     * @throws IllegalArgumentException if {@code id < 1}, or {@code id > 1} and {@code snapshot-(id-1)}
     *     does not exist (ids must stay contiguous); a {@link BaseSnapshotRemovedException} if a rollback
     *     removed {@code snapshot-(id-1)} before or while this snapshot was published (it is not in the
     *     table then)
     * @throws IOException if the outcome is unknown: the snapshot may or may not have been published
     */
    public boolean tryCommit(Snapshot snapshot) throws IOException {
        long id = snapshot.id();
        if (id < 1) {
            throw new IllegalArgumentException(
                    "Cannot commit snapshot " + id + " of table " + tableRoot + ": snapshot ids start at 1");
        }
        if (id > 1 && !snapshotExists(id - 1)) {
            if (listSnapshotIds().stream().anyMatch(existing -> existing < id - 1)) {
                throw rolledBack(id);
            }
            throw new IllegalArgumentException("Cannot commit snapshot " + id + " of table " + tableRoot
                    + ": previous snapshot " + snapshotPath(id - 1) + " does not exist; snapshot ids must be contiguous");
        }
        byte[] content = SnapshotSerializer.toJson(snapshot).getBytes(StandardCharsets.UTF_8);
        if (!publisher.publish(snapshotPath(id), content)) {
            return false;
        }
        if (id > 1 && baseRemovedByRollback(id)) {
            // A rollback removed our base between the check above and the publish: take our snapshot back
            // rather than leave it after a hole in the ids (the rollback itself also removes it).
            fileIO.delete(snapshotPath(id), false);
            throw rolledBack(id);
        }
        try {
            commitLatestHint(id);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Committed snapshot {} of table {} but cannot update {}; readers fall back to listing",
                    id, tableRoot, latestHintPath(), e);
        }
        return true;
    }

    /**
     * Whether snapshot {@code id - 1} is gone while an older one still exists: a rollback removed it.
     * (Expiration removes snapshots oldest first, so it never leaves an older one behind.)
     */
    private boolean baseRemovedByRollback(long id) throws IOException {
        if (snapshotExists(id - 1)) {
            return false;
        }
        return listSnapshotIds().stream().anyMatch(existing -> existing < id - 1);
    }

    private BaseSnapshotRemovedException rolledBack(long id) {
        return new BaseSnapshotRemovedException("Cannot commit snapshot " + id + " of table " + tableRoot
                + ": snapshot " + (id - 1) + ", on which it was built, was removed by a rollback of the table "
                + "meanwhile; the commit was not applied. Restart the writer from the table's current state");
    }

    /** Overwrites {@code LATEST} with {@code id} (decimal, no newline). */
    public void commitLatestHint(long id) throws IOException {
        fileIO.overwrite(latestHintPath(), Long.toString(id).getBytes(StandardCharsets.US_ASCII));
    }

    /** Deletes snapshot file {@code id} (rollback only); whether it existed. */
    public boolean deleteSnapshot(long id) throws IOException {
        return fileIO.delete(snapshotPath(id), false);
    }

    /**
     * Writes {@code snapshot}'s file if it does not exist (a rollback to a tag whose snapshot expired);
     * whether this call created it.
     */
    public boolean restoreSnapshot(Snapshot snapshot) throws IOException {
        return fileIO.createIfAbsent(snapshotPath(snapshot.id()),
                SnapshotSerializer.toJson(snapshot).getBytes(StandardCharsets.UTF_8));
    }

    /** Overwrites {@code EARLIEST} with {@code id} (decimal, no newline). */
    public void commitEarliestHint(long id) throws IOException {
        fileIO.overwrite(earliestHintPath(), Long.toString(id).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * Reads snapshots {@code fromInclusive..toInclusive} in ascending id order, one file per
     * {@code next()}. Read failures surface as {@link UncheckedIOException} (a missing id wraps a
     * {@link FileNotFoundException}, e.g. after concurrent expiration) or {@link CorruptSnapshotException}.
     */
    public Iterator<Snapshot> snapshotsAscending(long fromInclusive, long toInclusive) {
        return new SnapshotIterator(fromInclusive, toInclusive, 1);
    }

    /** Like {@link #snapshotsAscending} but from {@code toInclusive} down to {@code fromInclusive}. */
    public Iterator<Snapshot> snapshotsDescending(long fromInclusive, long toInclusive) {
        return new SnapshotIterator(toInclusive, fromInclusive, -1);
    }

    private final class SnapshotIterator implements Iterator<Snapshot> {
        private final long last;
        private final int step;
        private long next;

        SnapshotIterator(long first, long last, int step) {
            this.next = first;
            this.last = last;
            this.step = step;
        }

        @Override
        public boolean hasNext() {
            return step > 0 ? next <= last : next >= last;
        }

        @Override
        public Snapshot next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            long id = next;
            next += step;
            try {
                return snapshot(id);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
