package dev.streamhouse.flink.procedure;

import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.flink.sink.OverwriteCommit;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.TableCommit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The commit of {@code CALL sys.rescale}: one OVERWRITE snapshot replacing the partition (or the whole
 * table) with the rows the job read from snapshot {@code readSnapshot}, rewritten with the new bucket
 * count. Before it commits it checks that every snapshot committed since the read is a COMPACT one
 * (which cannot change rows); anything else (a concurrent write or overwrite) would be lost by the
 * overwrite, so the commit fails naming it, deletes nothing of the table and the CALL can be retried.
 */
final class RescaleCommit implements CommitAction {
    private static final long serialVersionUID = 1L;

    private final FileStoreTable table;
    private final long readSnapshot;
    private final OverwriteCommit overwrite;

    RescaleCommit(FileStoreTable table, long readSnapshot, Map<String, String> partition) {
        this.table = table;
        this.readSnapshot = readSnapshot;
        this.overwrite = OverwriteCommit.staticPartition(partition);
    }

    @Override
    public void commit(TableCommit commit, long identifier, List<CommitMessage> messages) {
        try {
            Long latest = table.snapshotManager().latestSnapshotId();
            if (latest != null && latest > readSnapshot) {
                Iterator<Snapshot> it = table.snapshotManager().snapshotsAscending(readSnapshot + 1, latest);
                while (it.hasNext()) {
                    Snapshot s = it.next();
                    if (s.commitKind() != CommitKind.COMPACT) {
                        throw new IllegalStateException("Cannot rescale table " + table.fullName() + ": snapshot "
                                + s.id() + " (" + s.commitKind() + ") was committed after the rescale read snapshot "
                                + readSnapshot + "; its rows would be lost. Retry the CALL when no job writes"
                                + " the table");
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot rescale table " + table.fullName()
                    + ": cannot read its snapshots", e);
        }
        overwrite.commit(commit, identifier, messages);
    }

    @Override
    public boolean replacesData() {
        return true;
    }
}
