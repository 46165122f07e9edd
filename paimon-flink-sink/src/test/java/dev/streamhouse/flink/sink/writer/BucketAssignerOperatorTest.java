package dev.streamhouse.flink.sink.writer;

import dev.streamhouse.flink.common.data.RowDataView;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.sink.WriteContext;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static org.assertj.core.api.Assertions.assertThat;

/** The dynamic-bucket assigner operator in Flink's operator test harness. */
class BucketAssignerOperatorTest {
    private static final String USER = "assigner-test";

    @TempDir
    java.nio.file.Path tmp;

    private static OneInputStreamOperatorTestHarness<RowData, Tuple2<RowData, Integer>> harness(FileStoreTable table)
            throws Exception {
        OneInputStreamOperatorTestHarness<RowData, Tuple2<RowData, Integer>> h = new OneInputStreamOperatorTestHarness<>(
                new BucketAssignerOperator(table, USER, null, false),
                SinkTables.TYPE_INFO.createSerializer(new SerializerConfigImpl()));
        h.setup(new TupleTypeInfo<Tuple2<RowData, Integer>>(SinkTables.TYPE_INFO, BasicTypeInfo.INT_TYPE_INFO)
                .createSerializer(new SerializerConfigImpl()));
        return h;
    }

    @Test
    void assignsDropsIgnoredRowsAndWaitsOnRestoreForTheCheckpointOfItsLastNewKey() throws Exception {
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("t"), "bucket", "-1", "ignore-delete", "true");
        OperatorSubtaskState state;
        try (OneInputStreamOperatorTestHarness<RowData, Tuple2<RowData, Integer>> h = harness(table)) {
            h.open();
            h.processElement(flinkRow(1, 10, "a"), 0);
            h.processElement(flinkRow(RowKind.DELETE, 2, 0, "a"), 0);
            h.snapshot(3, 3);
            h.processElement(flinkRow(1, 11, "a"), 0);   // a known key: nothing new for the index
            state = h.snapshot(4, 4);
            List<Tuple2<RowData, Integer>> out = h.extractOutputValues();
            assertThat(out).hasSize(2).allMatch(t -> t.f1 == 0 && t.f0.getInt(0) == 1);
        }

        OneInputStreamOperatorTestHarness<RowData, Tuple2<RowData, Integer>> restored = harness(table);
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
        Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> init.isDone()
                || Arrays.stream(restoring.getStackTrace()).anyMatch(f -> f.getClassName().equals(CommittedCheckpoint.class.getName())
                        && f.getMethodName().equals("await")));
        assertThat(init).as("must not read the hash index before checkpoint 3 is in the table").isNotDone();

        // The committer commits checkpoint 3, the one of key 1 (not 4, which brought no new key).
        try (TableWrite w = table.newWrite(WriteContext.single().withAssignedBuckets())) {
            w.write(new RowDataView(flinkRow(1, 10, "a")), 0);
            table.newStreamCommit(USER).commit(3, w.prepareCommit());
        }
        init.get(10, TimeUnit.SECONDS);
        restored.open();
        restored.processElement(flinkRow(1, 12, "a"), 0);
        restored.processElement(flinkRow(3, 12, "a"), 0);
        assertThat(restored.extractOutputValues()).extracting(t -> t.f1).containsExactly(0, 0);
        restored.close();
    }
}
