package dev.streamhouse.flink.sink.committer;

import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.table.sink.TableCommit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * What a restored committer does with one pending checkpoint of one table. Missing from the table
 * (a failure hit between its completion and its commit): its data increments are committed, its
 * compactions dropped and their outputs deleted (restored writers compact again). Already committed:
 * the compactions of a checkpoint whose COMPACT snapshot never landed (a failure between its two
 * snapshots) have their outputs deleted ({@link TableCommit#abortCompactionsIfNotCommitted}).
 */
public final class RestoredCheckpoint {
    private static final Logger LOG = LoggerFactory.getLogger(RestoredCheckpoint.class);

    private RestoredCheckpoint() {}

    /**
     * @param missing whether the table does not show the checkpoint committed by the commit user
     * @param action how the checkpoint is committed (an action that replaces data commits even without data)
     */
    public static void finish(TableCommit commit, CommitAction action, long checkpointId, List<CommitMessage> messages,
            boolean missing, String table) {
        if (missing) {
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
            LOG.info("Committing restored checkpoint {} of table {} ({} data messages, {} compactions dropped, "
                    + "commit user {})", checkpointId, table, data.size(), compactions.size(), commit.commitUser());
            if (!data.isEmpty() || action.replacesData()) {
                action.commit(commit, checkpointId, data);
            }
            // Never committed (the checkpoint had no snapshot at all): the outputs are garbage.
            commit.abort(compactions);
            return;
        }
        LOG.info("Restored checkpoint {} of table {} is already committed (commit user {})", checkpointId, table,
                commit.commitUser());
        if (commit.abortCompactionsIfNotCommitted(checkpointId, messages)) {
            LOG.info("The compactions of restored checkpoint {} of table {} never reached a snapshot (the job failed "
                    + "between its two snapshots); their files were deleted", checkpointId, table);
        }
    }
}
