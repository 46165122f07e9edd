package dev.streamhouse.flink.procedure;

import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.flink.sink.OverwriteCommit;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableCommit;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The commit of {@code CALL sys.rescale}: one OVERWRITE snapshot replacing the partition (or the whole
 * table) with the rows the job read from snapshot {@code readSnapshot}, rewritten with the new bucket
 * count. Before it commits it checks that every snapshot committed since the read is a COMPACT one
 * (which cannot change rows); anything else (a concurrent write or overwrite) would be lost by the
 * overwrite, so the commit fails naming it, deletes the files the job wrote (and nothing of the table)
 * and the CALL can be retried.
 */
final class RescaleCommit implements CommitAction {
    private static final long serialVersionUID = 1L;

    private final Table table;
    private final long readSnapshot;
    private final OverwriteCommit overwrite;

    RescaleCommit(Table table, long readSnapshot, Map<String, String> partition) {
        this.table = table;
        this.readSnapshot = readSnapshot;
        this.overwrite = OverwriteCommit.staticPartition(partition);
    }

    @Override
    public void commit(TableCommit commit, long identifier, List<CommitMessage> messages) {
        long latest = table.latestSnapshot().map(Snapshot::id).orElse(readSnapshot);
        for (long id = readSnapshot + 1; id <= latest; id++) {
            Optional<Snapshot> s = table.snapshot(id);
            if (s.isEmpty() || s.get().commitKind() != CommitKind.COMPACT) {
                // Nothing was committed: the rewritten files are garbage.
                commit.abort(messages);
                throw new IllegalStateException("Cannot rescale table " + table.fullName() + ": snapshot " + id
                        + " (" + s.map(x -> x.commitKind().name()).orElse("expired") + ") was committed after the"
                        + " rescale read snapshot " + readSnapshot + "; its rows would be lost. Retry the CALL when"
                        + " no job writes the table");
            }
        }
        overwrite.commit(commit, identifier, messages);
    }

    @Override
    public boolean replacesData() {
        return true;
    }
}
