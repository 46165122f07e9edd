package dev.streamhouse.flink.sink.testutils;

import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.table.sink.TableCommit;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link CommitAction#append()} in two steps, with every committer-side point of {@link FailurePlan}:
 * the data increments of a checkpoint as its APPEND snapshot, then (after
 * {@link FailurePlan.Point#BETWEEN_SNAPSHOTS}) its compactions as the COMPACT snapshot, both under the
 * checkpoint's identifier, as one {@code TableCommit.commit} call makes them. A failure between them
 * leaves exactly what a crash there leaves: the checkpoint looks committed and its compaction (with
 * the lookup changelog) never lands.
 */
public final class SplitCommitAction implements CommitAction {
    private static final long serialVersionUID = 1L;

    @Override
    public void commit(TableCommit commit, long identifier, List<CommitMessage> messages) {
        FailurePlan.maybeFail(FailurePlan.Point.BEFORE_COMMIT);
        List<CommitMessage> data = new ArrayList<>();
        List<CommitMessage> compactions = new ArrayList<>();
        for (CommitMessage m : messages) {
            if (!m.dataIncrement().isEmpty()) {
                data.add(new CommitMessage(m.partition(), m.bucket(), m.totalBuckets(), m.dataIncrement(),
                        CompactIncrement.EMPTY));
            }
            if (!m.compactIncrement().isEmpty()) {
                compactions.add(new CommitMessage(m.partition(), m.bucket(), m.totalBuckets(), DataIncrement.EMPTY,
                        m.compactIncrement()));
            }
        }
        if (!data.isEmpty()) {
            commit.commit(identifier, data);
            FailurePlan.maybeFail(FailurePlan.Point.BETWEEN_SNAPSHOTS);
        }
        if (!compactions.isEmpty()) {
            commit.commit(identifier, compactions);
        }
        FailurePlan.maybeFail(FailurePlan.Point.AFTER_COMMIT);
    }
}
