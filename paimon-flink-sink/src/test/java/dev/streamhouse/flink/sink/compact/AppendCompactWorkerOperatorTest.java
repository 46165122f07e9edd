package dev.streamhouse.flink.sink.compact;

import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.flink.sink.committable.CommittableTypeInfo;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.AppendCompactCoordinator;
import dev.streamhouse.storage.table.sink.AppendCompactTask;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.java.typeutils.EitherTypeInfo;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.types.Either;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.streamhouse.flink.sink.testutils.SinkTables.storageRow;
import static org.assertj.core.api.Assertions.assertThat;

/** The compaction worker of tables without buckets, in Flink's operator test harness. */
class AppendCompactWorkerOperatorTest {
    @TempDir
    java.nio.file.Path tmp;

    private Path dir;
    private FileStoreTable table;
    private List<Path> committedFiles;

    /** Three commits, a file each, in one partition: one task of three files. */
    @BeforeEach
    void createTable() throws Exception {
        dir = tmp.resolve("t");
        table = SinkTables.append(dir, "compaction.min.file-num", "3");
        for (int i = 0; i < 3; i++) {
            TestTables.write(table, List.of(storageRow(i, i, "a")));
        }
        committedFiles = SinkTables.dataFiles(dir);
    }

    private OneInputStreamOperatorTestHarness<Either<Committable, AppendCompactTask>, Committable> harness()
            throws Exception {
        EitherTypeInfo<Committable, AppendCompactTask> type = new EitherTypeInfo<>(CommittableTypeInfo.INSTANCE,
                AppendCompactTaskTypeInfo.INSTANCE);
        OneInputStreamOperatorTestHarness<Either<Committable, AppendCompactTask>, Committable> h =
                new OneInputStreamOperatorTestHarness<>(new AppendCompactWorkerOperator(table),
                        type.createSerializer(new SerializerConfigImpl()));
        h.setup(CommittableTypeInfo.INSTANCE.createSerializer(new SerializerConfigImpl()));
        return h;
    }

    private AppendCompactTask task() throws Exception {
        List<AppendCompactTask> tasks = AppendCompactCoordinator.of(table).run();
        assertThat(tasks).hasSize(1);
        return tasks.get(0);
    }

    private static List<Committable> committables(
            OneInputStreamOperatorTestHarness<Either<Committable, AppendCompactTask>, Committable> h) {
        List<Committable> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof StreamRecord<?> r) {
                out.add((Committable) r.getValue());
            }
        }
        return out;
    }

    @Test
    void passesCommittablesOnAndHandsOutItsCompactionsAtTheEnd() throws Exception {
        Committable fromWriters = Committable.ofCheckpoint(7, List.of()).forTable(table.fullName());
        try (OneInputStreamOperatorTestHarness<Either<Committable, AppendCompactTask>, Committable> h = harness()) {
            h.open();
            h.processElement(Either.Left(fromWriters), 0);
            h.processElement(Either.Right(task()), 0);
            h.endInput();
            List<Committable> out = committables(h);
            assertThat(out).hasSize(2);
            assertThat(out.get(0)).isEqualTo(fromWriters);
            assertThat(out.get(1).isEndOfInput()).isTrue();
            List<CommitMessage> messages = out.get(1).messages();
            assertThat(messages).hasSize(1);
            assertThat(messages.get(0).compactIncrement().compactBefore()).hasSize(3);
            try (BatchTableCommit commit = table.newBatchCommit()) {
                commit.commit(messages);
            }
        }
        assertThat(SinkTables.dataFiles(dir)).as("three committed files and their compaction").hasSize(4);
        assertThat(table.newReadBuilder().newScan().plan().splits().get(0).files()).hasSize(1);
        assertThat(TestTables.readAll(table)).hasSize(3);
    }

    @Test
    void closingWithoutHandingOutLeavesNoCompactionFilesBehind() throws Exception {
        try (OneInputStreamOperatorTestHarness<Either<Committable, AppendCompactTask>, Committable> h = harness()) {
            h.open();
            h.processElement(Either.Right(task()), 0);
            // The job fails now: the compaction is still running or finished, never handed out.
        }
        assertThat(SinkTables.dataFiles(dir)).containsExactlyInAnyOrderElementsOf(committedFiles);
    }
}
