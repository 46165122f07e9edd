package dev.streamhouse.storage.maintenance.rollback;

import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;

/**
 * Rolls a table back, as Apache Paimon 1.3.1's {@code rollback_to}, {@code rollback_to_timestamp} and
 * {@code rollback_to_watermark} do: later snapshots, later long-lived changelog entries and the tags of
 * later snapshots are deleted and the table reads as of the target again; a tag's expired snapshot is
 * written back from the tag. Then, unlike Paimon 1.3.1, which leaves them to orphan cleanup, the data,
 * changelog, manifest, index and statistics files that only the removed snapshots, entries and tags
 * used are deleted; nothing a remaining snapshot, tag or changelog entry uses (see {@link Rollback}).
 * Concurrent writers get a conflict.
 *
 * <p>Errors: a missing target is an {@link IllegalArgumentException} naming it; an I/O failure while
 * metadata is removed an {@link UncheckedIOException} (repeating the rollback finishes it). Once the
 * metadata is gone the rollback reports success: a file that cannot be deleted then is logged and left
 * for {@code remove_orphan_files}.
 */
public final class TableRollback {
    private final FileStoreTable table;

    private TableRollback(FileStoreTable table) {
        this.table = table;
    }

    /** @throws UnsupportedOperationException if the table is not stored in the Paimon format */
    public static TableRollback of(Table table) {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedOperationException("Cannot roll back table " + table.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return new TableRollback((FileStoreTable) table);
    }

    /** What a rollback did: the latest snapshot before it and the one the table is at now. */
    public record Result(long previousSnapshotId, long currentSnapshotId) {}

    /** Rolls back to snapshot {@code id}, which must still exist. */
    public Result toSnapshot(long id) {
        return run(rollback -> rollback.toSnapshot(id));
    }

    /** Rolls back to the snapshot of tag {@code name}. */
    public Result toTag(String name) {
        return run(rollback -> rollback.toTag(name));
    }

    /**
     * Rolls back to the latest snapshot committed at or before {@code timestampMillis}.
     *
     * @throws IllegalArgumentException if every retained snapshot is younger
     */
    public Result toTimestamp(long timestampMillis) {
        return run(rollback -> rollback.toSnapshot(latestMatching(s -> s.timeMillis() <= timestampMillis,
                "was committed at or before " + timestampMillis)));
    }

    /**
     * Rolls back to the latest snapshot whose watermark is at most {@code watermark}.
     *
     * @throws IllegalArgumentException if no retained snapshot has such a watermark
     */
    public Result toWatermark(long watermark) {
        return run(rollback -> rollback.toSnapshot(latestMatching(
                s -> s.watermark() != null && s.watermark() <= watermark, "had a watermark of at most " + watermark)));
    }

    private long latestMatching(java.util.function.Predicate<Snapshot> test, String what) throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        Long earliest = snapshots.earliestSnapshotId();
        Long latest = snapshots.latestSnapshotId();
        if (earliest != null && latest != null) {
            try {
                Iterator<Snapshot> it = snapshots.snapshotsDescending(earliest, latest);
                while (it.hasNext()) {
                    Snapshot s = it.next();
                    if (test.test(s)) {
                        return s.id();
                    }
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
        throw new IllegalArgumentException("Cannot roll back table " + table.fullName() + ": no retained snapshot "
                + what);
    }

    private interface Step {
        Rollback.Result apply(Rollback rollback) throws IOException;
    }

    private Result run(Step step) {
        Rollback rollback = new Rollback(table.fileIO(), table.snapshotManager(), table.tagManager(),
                table.fileCleanup(), table.fullName());
        try {
            Rollback.Result r = step.apply(rollback);
            return new Result(r.previousSnapshotId(), r.currentSnapshotId());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot roll back table " + table.fullName() + ": " + e.getMessage()
                    + "; run the rollback again to finish it", e);
        }
    }
}
