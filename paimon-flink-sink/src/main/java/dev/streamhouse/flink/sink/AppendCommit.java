package dev.streamhouse.flink.sink;

import dev.streamhouse.storage.table.sink.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;

import java.util.List;

/** {@link CommitAction#append()}: a plain commit that adds files. */
enum AppendCommit implements CommitAction {
    INSTANCE;

    @Override
    public void commit(TableCommit commit, long identifier, List<CommitMessage> messages) {
        commit.commit(identifier, messages);
    }
}
