package dev.streamhouse.flink.sink.routing;

import dev.streamhouse.flink.common.data.RowDataView;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableBucketAssigner;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.sink.WriteContext;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.table.data.GenericRowData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static org.assertj.core.api.Assertions.assertThat;

/** Routing agrees with where the storage writer puts rows, so each (partition, bucket) has one writer. */
class RoutingTest {
    @TempDir
    java.nio.file.Path tmp;

    private static List<GenericRowData> rows(int n) {
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(flinkRow(i * 7919 - 500, i, "day-" + (i % 5)));
        }
        return rows;
    }

    @ParameterizedTest
    @ValueSource(strings = {"pk", "append-id", "append-id-v", "mod"})
    void fixedBucketRouteKeyNamesTheBucketTheStorageWrites(String variant) throws Exception {
        FileStoreTable table;
        switch (variant) {
            case "pk":
                table = SinkTables.primaryKey(tmp.resolve("t"), "bucket", "5");
                break;
            case "append-id":
                table = SinkTables.append(tmp.resolve("t"), "bucket", "5", "bucket-key", "id");
                break;
            case "append-id-v":
                table = SinkTables.append(tmp.resolve("t"), "bucket", "5", "bucket-key", "v,id");
                break;
            default:
                table = SinkTables.append(tmp.resolve("t"), "bucket", "5", "bucket-key", "id",
                        "bucket-function.type", "mod");
        }
        FixedBucketKeySelector selector = new FixedBucketKeySelector(table.schema());
        Map<String, Long> routeOfRow = new HashMap<>();
        try (TableWrite w = table.newWrite()) {
            for (GenericRowData r : rows(300)) {
                routeOfRow.put(r.getInt(0) + "/" + r.getString(2), selector.getKey(r));
                w.write(new RowDataView(r));
            }
            table.newBatchCommit().commit(w.prepareCommit());
        }
        ReadBuilder rb = table.newReadBuilder();
        int checked = 0;
        for (DataSplit split : rb.newScan().plan().splits()) {
            List<String> keys = new ArrayList<>();
            rb.newRead().createReader(split).forEachRemaining(row -> keys.add(row.intAt(0) + "/" + row.stringAt(2)));
            for (String key : keys) {
                long route = routeOfRow.get(key);
                assertThat(FixedBucketKeySelector.bucket(route)).as("bucket of %s", key).isEqualTo(split.bucket());
                assertThat(RouteKey.high(route)).isEqualTo(split.partition().formatHash());
                checked++;
            }
        }
        assertThat(checked).isEqualTo(300);
    }

    @Test
    void fixedBucketChannelsSpreadAPartitionsBuckets() {
        Set<Integer> channels = new HashSet<>();
        for (int bucket = 0; bucket < 4; bucket++) {
            channels.add(FixedBucketPartitioner.channel(-123456, bucket, 4));
        }
        assertThat(channels).containsExactlyInAnyOrder(0, 1, 2, 3);
        assertThat(FixedBucketPartitioner.channel(Integer.MIN_VALUE, 3, 3)).isBetween(0, 2);
    }

    @Test
    void dynamicBucketRoutingMatchesTheAssignersAndGivesEachBucketOneWriter() throws Exception {
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("t"), "bucket", "-1",
                "dynamic-bucket.target-row-num", "20");
        int assigners = 3;
        int writers = 2;
        DynamicBucketKeySelector selector = new DynamicBucketKeySelector(table.schema());
        DynamicBucketPartitioner partitioner = new DynamicBucketPartitioner(null);
        List<TableBucketAssigner> assignerTasks = new ArrayList<>();
        for (int i = 0; i < assigners; i++) {
            assignerTasks.add(table.newBucketAssigner(
                    WriteContext.single().withAssigner(new AssignerRouting(assigners, assigners, i))));
        }
        AssignedBucketKeySelector bucketSelector = new AssignedBucketKeySelector(table.schema());
        FixedBucketPartitioner writerPartitioner = new FixedBucketPartitioner();
        List<TableWrite> writerTasks = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            writerTasks.add(table.newWrite(WriteContext.single().withAssignedBuckets()));
        }
        Set<Integer> assignersUsed = new HashSet<>();
        for (GenericRowData r : rows(300)) {
            int assigner = partitioner.partition(selector.getKey(r), assigners);
            assignersUsed.add(assigner);
            // The assigner throws if it receives a row routed to another assigner.
            int bucket = assignerTasks.get(assigner).assign(new RowDataView(r));
            Tuple2<org.apache.flink.table.data.RowData, Integer> assigned = Tuple2.of(r, bucket);
            int writer = writerPartitioner.partition(bucketSelector.getKey(assigned), writers);
            writerTasks.get(writer).write(new RowDataView(r), bucket);
        }
        assertThat(assignersUsed).hasSize(assigners);
        List<CommitMessage> messages = new ArrayList<>();
        Map<String, Integer> writerOfBucket = new HashMap<>();
        for (int task = 0; task < writers; task++) {
            try (TableWrite w = writerTasks.get(task)) {
                for (CommitMessage m : w.prepareCommit()) {
                    Integer other = writerOfBucket.put(m.partition() + "/" + m.bucket(), task);
                    assertThat(other).as("bucket %s written by two writers", m.bucket()).isNull();
                    messages.add(m);
                }
            }
        }
        table.newStreamCommit("routing").commit(1, messages);
        assertThat(dev.streamhouse.storage.testutils.TestTables.readAll(table)).hasSize(300);
    }
}
