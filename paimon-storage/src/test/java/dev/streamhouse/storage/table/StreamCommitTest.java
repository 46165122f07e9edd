package dev.streamhouse.storage.table;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.operation.CommitConflictException;
import dev.streamhouse.storage.operation.CommitOutcomeUnknownException;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.FileOperation;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.data.InternalRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Exactly-once by identity: (commit user, identifier) decides whether a commit already landed. */
class StreamCommitTest {
    @TempDir
    java.nio.file.Path tmp;

    private final FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);

    @AfterEach
    void release() {
        io.release();
    }

    private static List<CommitMessage> write(FileStoreTable table, List<InternalRow> rows) throws Exception {
        try (TableWrite w = table.newWrite()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            return w.prepareCommit();
        }
    }

    @Test
    void filterCommittedTellsARestartedJobWhatIsLeft() throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()),
                TestTables.simpleSchema());
        TableCommit job = table.newStreamCommit("job-1");
        job.commit(1, write(table, TestTables.rows(0, 5, 2)));
        job.commit(2, write(table, TestTables.rows(5, 5, 2)));
        table.newStreamCommit("other-job").commit(7, write(table, TestTables.rows(10, 5, 2)));

        // After a restart, the same user learns that 1 and 2 landed and 3 did not.
        TableCommit restarted = table.newStreamCommit("job-1");
        assertThat(restarted.filterCommitted(List.of(1L, 2L, 3L))).containsExactly(3L);
        assertThat(table.newStreamCommit("new-job").filterCommitted(List.of(1L, 2L))).containsExactly(1L, 2L);
        assertThat(table.latestSnapshot().orElseThrow().commitUser()).isEqualTo("other-job");
        assertThat(TestTables.readAll(table)).hasSize(15);
    }

    @Test
    void uncertainPublicationIsResolvedOnRetryWithoutDuplicates() throws Exception {
        Path root = new Path(tmp.resolve("t").toString());
        TestTables.create(LocalFileIO.INSTANCE, root, TestTables.simpleSchema());
        FileStoreTable table = FileStoreTable.load(io, root, "default.test");
        TableCommit commit = table.newStreamCommit("job-1");
        List<CommitMessage> messages = write(table, TestTables.rows(0, 10, 2));

        // The snapshot file gets created, but every later look at snapshot-1 fails: the committer
        // cannot tell whether it succeeded.
        io.armMatching(p -> p.name().equals("snapshot-1"));
        assertThatThrownBy(() -> commit.commit(1, messages))
                .isInstanceOf(CommitOutcomeUnknownException.class)
                .hasMessageContaining("snapshot 1").hasMessageContaining("nothing was deleted");
        io.disarm();
        assertThat(io.delegate().exists(new Path(root, "snapshot/snapshot-1"))).isFalse();

        commit.commit(1, messages);
        assertThat(TestTables.readAll(table)).hasSize(10);
        assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(1);
    }

    @Test
    void aPublicationReportedAsFailedButLandedIsRecognised() throws Exception {
        Path root = new Path(tmp.resolve("t").toString());
        TestTables.create(LocalFileIO.INSTANCE, root, TestTables.simpleSchema());
        FileStoreTable table = FileStoreTable.load(io, root, "default.test");
        TableCommit commit = table.newStreamCommit("job-1");

        // snapshot-1 is created, then the call reports a failure: the committer must look and see it is ours.
        io.armAfterSuccess(p -> p.name().equals("snapshot-1"), FileOperation.CREATE_IF_ABSENT);
        commit.commit(1, write(table, TestTables.rows(0, 10, 2)));
        assertThat(io.failuresInjected()).isEqualTo(1);
        assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(1);

        commit.commit(2, write(table, TestTables.rows(10, 10, 2)));
        assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(2);
        assertThat(TestTables.readAll(table)).hasSize(20);
    }

    @Test
    void deletingAFileThatIsNoLongerLiveIsATypedConflict() throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()),
                TestTables.simpleSchema());
        List<CommitMessage> added = write(table, TestTables.rows(0, 5, 1));
        table.newStreamCommit("a").commit(1, added);
        CommitMessage m = added.get(0);
        List<DataFileMeta> files = m.newFiles();
        CommitMessage delete = new CommitMessage(m.partition(), m.bucket(), m.totalBuckets(),
                new DataIncrement(List.of(), files, List.of(), List.of(), List.of()), CompactIncrement.EMPTY);
        table.newStreamCommit("a").commit(2, List.of(delete));
        assertThat(table.latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(TestTables.readAll(table)).isEmpty();

        long before = table.latestSnapshot().orElseThrow().id();
        assertThatThrownBy(() -> table.newStreamCommit("b").commit(1, List.of(delete)))
                .isInstanceOf(CommitConflictException.class)
                .hasMessageContaining(files.get(0).fileName()).hasMessageContaining("no longer live");
        assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(before);
    }
}
