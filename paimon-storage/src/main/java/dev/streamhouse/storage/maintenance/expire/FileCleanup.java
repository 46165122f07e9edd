package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.snapshot.Snapshot;

import java.io.IOException;
import java.util.List;

/**
 * Deletes the files that metadata an operation removes was the last to use: a rollback removing later
 * snapshots, long-lived changelog entries ({@code changelog/}) and tags, or tags being deleted or
 * expired. It is the seam between those operations, which own the metadata files, and the table's
 * reference walking, which knows the data, changelog, manifest, index and statistics files behind them.
 *
 * <p>Contract, for one operation: {@link #begin} a {@link Run}; hand it every snapshot, tag and changelog
 * entry the operation is about to remove <em>before</em> removing it (the run reads their manifests
 * then, while they still exist); remove the metadata; then call {@link Run#finish}, also when removing
 * the metadata failed part way. {@code finish} deletes only files that no snapshot, tag or changelog
 * entry still on disk at that moment references (consumers protect snapshots and changelog entries,
 * which therefore protect their files), so it is safe whatever part of the metadata is gone, and
 * metadata that failed to go keeps its files. It never throws: once metadata is gone the operation has
 * happened, and a file that could not be deleted is logged and left for {@code remove_orphan_files}.
 *
 * <p>Runs are not thread-safe; one per operation.
 */
public interface FileCleanup {

    /**
     * Starts the cleanup of one operation.
     *
     * @param operation what is removed, for log messages (e.g. "rollback of table db.t to snapshot 3")
     */
    Run begin(String operation);

    /** The cleanup of one operation; see {@link FileCleanup}. */
    interface Run {
        /**
         * Collects what these snapshots reference; call before deleting their files. Missing manifests are
         * skipped (what they named cannot be found any more).
         *
         * @param ascending snapshots by ascending id
         */
        void snapshots(List<Snapshot> ascending) throws IOException;

        /** Collects what the snapshots of these tags reference; call before deleting the tag files. */
        void tags(List<Snapshot> tagged) throws IOException;

        /** Collects what these long-lived changelog entries reference; call before deleting them. */
        void changelogEntries(List<Snapshot> entries) throws IOException;

        /**
         * Deletes every collected file that no snapshot, tag or changelog entry now on disk references;
         * never throws (failures are logged, the files left for orphan cleanup).
         *
         * @return how many files were deleted
         */
        int finish();
    }

    /** Deletes no files (metadata-only operations, and tables this cannot walk). */
    FileCleanup NONE = operation -> new Run() {
        @Override
        public void snapshots(List<Snapshot> ascending) {}

        @Override
        public void tags(List<Snapshot> tagged) {}

        @Override
        public void changelogEntries(List<Snapshot> entries) {}

        @Override
        public int finish() {
            return 0;
        }
    };
}
