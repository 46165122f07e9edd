package dev.streamhouse.flink.sink.testutils;

import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;

import java.util.List;

/**
 * {@link CommitAction#append()} with the committer-side points of {@link FailurePlan}: it may throw
 * before committing, and right after the snapshot was published (before the committer's
 * notifyCheckpointComplete, or its restore, returns and drops the checkpoint from its state). The
 * committer calls it on checkpoint completion and for restored checkpoints, so both paths are hit.
 */
public final class FailingCommitAction implements CommitAction {
    private static final long serialVersionUID = 1L;

    @Override
    public void commit(TableCommit commit, long identifier, List<CommitMessage> messages) {
        FailurePlan.maybeFail(FailurePlan.Point.BEFORE_COMMIT);
        CommitAction.append().commit(commit, identifier, messages);
        FailurePlan.maybeFail(FailurePlan.Point.AFTER_COMMIT);
    }
}
