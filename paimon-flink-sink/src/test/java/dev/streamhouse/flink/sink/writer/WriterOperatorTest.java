package dev.streamhouse.flink.sink.writer;

import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.flink.sink.committable.CommittableTypeInfo;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.testutils.TestTables;
import org.awaitility.Awaitility;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.Arrays;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.streamhouse.flink.sink.testutils.SinkTables.dataFiles;
import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static org.assertj.core.api.Assertions.assertThat;

/** The writer in Flink's operator test harness. */
class WriterOperatorTest {
    private static final String USER = "writer-test";

    @TempDir
    java.nio.file.Path tmp;

    private static OneInputStreamOperatorTestHarness<RowData, Committable> harness(FileStoreTable table)
            throws Exception {
        OneInputStreamOperatorTestHarness<RowData, Committable> h = new OneInputStreamOperatorTestHarness<>(
                new WriterOperator(table, USER, false),
                SinkTables.TYPE_INFO.createSerializer(new SerializerConfigImpl()));
        h.setup(CommittableTypeInfo.INSTANCE.createSerializer(new SerializerConfigImpl()));
        return h;
    }

    @Test
    void handsOutFilesBeforeBarriersAndAtEndOfInput() throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"));
        try (OneInputStreamOperatorTestHarness<RowData, Committable> h = harness(table)) {
            h.open();
            h.processElement(flinkRow(1, 1, "a"), 0);
            h.processElement(flinkRow(2, 2, "b"), 0);
            h.prepareSnapshotPreBarrier(7);
            h.snapshot(7, 7);
            h.prepareSnapshotPreBarrier(8); // nothing written since: nothing handed out
            h.snapshot(8, 8);
            h.processElement(flinkRow(3, 3, "a"), 0);
            h.endInput();
            List<Committable> out = h.extractOutputValues();
            assertThat(out).hasSize(2);
            assertThat(out.get(0).checkpointId()).isEqualTo(7);
            assertThat(out.get(0).messages()).hasSize(2); // partitions a and b
            assertThat(out.get(1).isEndOfInput()).isTrue();
            assertThat(out.get(1).messages()).singleElement()
                    .satisfies(m -> assertThat(m.newFiles().get(0).rowCount()).isEqualTo(1));
        }
    }

    @Test
    void committablesNameTheirTable() throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"));
        try (OneInputStreamOperatorTestHarness<RowData, Committable> h = harness(table)) {
            h.open();
            h.processElement(flinkRow(1, 1, "a"), 0);
            h.prepareSnapshotPreBarrier(1);
            h.processElement(flinkRow(2, 2, "b"), 0);
            h.endInput();
            assertThat(h.extractOutputValues()).hasSize(2)
                    .allSatisfy(c -> assertThat(c.table()).contains(table.fullName()));
        }
    }

    @Test
    void closingWithoutHandingOutDeletesTheFiles() throws Exception {
        java.nio.file.Path dir = tmp.resolve("t");
        FileStoreTable table = SinkTables.append(dir);
        try (OneInputStreamOperatorTestHarness<RowData, Committable> h = harness(table)) {
            h.open();
            for (int i = 0; i < 100; i++) {
                h.processElement(flinkRow(i, i, "d" + (i % 3)), 0);
            }
            assertThat(dataFiles(dir)).isNotEmpty();
        } // a failure: the harness closes the operator
        assertThat(dataFiles(dir)).isEmpty();
    }

    @Test
    void restoredPrimaryKeyWriterWaitsUntilItsLastCheckpointIsCommitted() throws Exception {
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("t"), "bucket", "2");
        OperatorSubtaskState state;
        List<CommitMessage> handedOut;
        try (OneInputStreamOperatorTestHarness<RowData, Committable> h = harness(table)) {
            h.open();
            h.processElement(flinkRow(1, 10, "a"), 0);
            h.prepareSnapshotPreBarrier(3);
            state = h.snapshot(3, 3);
            handedOut = h.extractOutputValues().get(0).messages();
        }

        OneInputStreamOperatorTestHarness<RowData, Committable> restored = harness(table);
        CompletableFuture<Void> init = new CompletableFuture<>();
        Thread restoring = new Thread(() -> {
            try {
                restored.initializeState(state);
                init.complete(null);
            } catch (Throwable e) {
                init.completeExceptionally(e);
            }
        }, "restore");
        restoring.start();
        // Wait until the restore is polling the table for checkpoint 3 (or has ended, which fails below).
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> init.isDone()
                || Arrays.stream(restoring.getStackTrace()).anyMatch(f -> f.getClassName().equals(CommittedCheckpoint.class.getName())
                        && f.getMethodName().equals("await")));
        assertThat(init).as("must not continue bucket files before checkpoint 3 is in the table").isNotDone();

        // The committer commits restored checkpoint 3.
        table.newStreamCommit(USER).commit(3, handedOut);
        init.get(10, TimeUnit.SECONDS);
        restored.open();
        restored.processElement(flinkRow(1, 11, "a"), 0);
        restored.endInput();
        table.newStreamCommit(USER).commit(4, restored.extractOutputValues().get(0).messages());
        restored.close();
        // The restored writer continued the bucket (higher sequence number): the update wins.
        assertThat(TestTables.readAll(table)).containsExactly("+I(1, 11, a)");
    }

    @Test
    void restoredAppendWriterDoesNotWait() throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"));
        OperatorSubtaskState state;
        try (OneInputStreamOperatorTestHarness<RowData, Committable> h = harness(table)) {
            h.open();
            h.processElement(flinkRow(1, 10, "a"), 0);
            h.prepareSnapshotPreBarrier(3);
            state = h.snapshot(3, 3);
        }
        try (OneInputStreamOperatorTestHarness<RowData, Committable> h = harness(table)) {
            CompletableFuture.runAsync(() -> {
                try {
                    h.initializeState(state);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }).get(10, TimeUnit.SECONDS);
        }
    }
}
