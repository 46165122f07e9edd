package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Dynamic buckets assigned ahead of the writers ({@link TableBucketAssigner}) and written by writers
 * routed by (partition, bucket) ({@link WriteContext#withAssignedBuckets()}), as a Flink job does: any
 * number of assigners and writers continues a table any other layout wrote, every key stays in one
 * bucket.
 */
class AssignedBucketWriteTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable create(String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("pt", DataTypes.INT())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.BIGINT())
                .column("s", DataTypes.STRING())
                .partitionKeys("pt")
                .primaryKey("pt", "id");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), b.build());
    }

    private static InternalRow row(RowKind kind, int pt, int id, long v) {
        return GenericRow.ofKind(kind, pt, id, v, BinaryString.fromString("s" + id));
    }

    /**
     * Writes {@code rows} through {@code assigners} bucket assigners ({@code perPartition} of them per
     * partition) and {@code writers} writers routed by (partition, bucket), and commits them.
     */
    private static void writeRouted(FileStoreTable table, long commit, int assigners, int perPartition, int writers,
            List<InternalRow> rows) throws Exception {
        RowKeyExtractor keys = RowKeyExtractor.of(table.schema());
        List<TableBucketAssigner> assignerTasks = new ArrayList<>();
        for (int i = 0; i < assigners; i++) {
            assignerTasks.add(table.newBucketAssigner(
                    WriteContext.single().withAssigner(new AssignerRouting(assigners, perPartition, i))));
        }
        List<TableWrite> writerTasks = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            writerTasks.add(table.newWrite(WriteContext.single().withAssignedBuckets()));
        }
        try {
            for (InternalRow row : rows) {
                int partitionHash = keys.partition(row).formatHash();
                int assigner = AssignerRouting.channel(partitionHash, keys.trimmedPrimaryKeyHash(row), assigners,
                        perPartition);
                int bucket = assignerTasks.get(assigner).assign(row);
                if (bucket < 0) {
                    continue;
                }
                int writer = Math.floorMod(Math.floorMod(partitionHash, writers) + bucket, writers);
                writerTasks.get(writer).write(row, bucket);
            }
            List<CommitMessage> messages = new ArrayList<>();
            for (TableWrite w : writerTasks) {
                messages.addAll(w.prepareCommit());
            }
            table.newStreamCommit("job").commit(commit, messages);
        } finally {
            for (TableWrite w : writerTasks) {
                w.close();
            }
        }
    }

    /** Applies {@code rows} to the expected table, keyed by (pt, id). */
    private static void apply(Map<String, String> expected, List<InternalRow> rows) {
        for (InternalRow r : rows) {
            String key = r.intAt(0) + "/" + r.intAt(1);
            if (r.rowKind().isRetract()) {
                expected.remove(key);
            } else {
                GenericRow g = GenericRow.of(r.intAt(0), r.intAt(1), r.longAt(2), r.stringAt(3));
                expected.put(key, g.toString());
            }
        }
    }

    private static List<String> sorted(Map<String, String> expected) {
        List<String> out = new ArrayList<>();
        for (String r : expected.values()) {
            out.add(withoutKind(r));
        }
        out.sort(null);
        return out;
    }

    /** The table's rows, without their row kind (compared here: the values). */
    private static List<String> read(FileStoreTable table) throws Exception {
        List<String> out = new ArrayList<>();
        for (String r : TestTables.readAll(table)) {
            out.add(withoutKind(r));
        }
        out.sort(null);
        return out;
    }

    private static String withoutKind(String row) {
        return row.substring(row.indexOf('('));
    }

    private static List<InternalRow> rows(RowKind kind, int fromId, int toId, long v) {
        List<InternalRow> rows = new ArrayList<>();
        for (int pt = 0; pt < 2; pt++) {
            for (int id = fromId; id < toId; id++) {
                rows.add(row(kind, pt, id, v));
            }
        }
        return rows;
    }

    @Test
    void anyLayoutContinuesAnyOtherAndKeepsEveryKeyInItsBucket() throws Exception {
        FileStoreTable table = create("dynamic-bucket.target-row-num", "7");
        Map<String, String> expected = new TreeMap<>();

        // Parallelism 1, as a first INSERT would write it.
        List<InternalRow> first = rows(RowKind.INSERT, 0, 40, 1);
        writeRouted(table, 1, 1, 1, 1, first);
        apply(expected, first);
        assertThat(read(table)).containsExactlyElementsOf(sorted(expected));
        Map<String, Integer> bucketOfKey = bucketsOfKeys(table);

        // Two assigners and two writers: updates and deletes of keys the single assigner placed, new keys.
        List<InternalRow> second = new ArrayList<>(rows(RowKind.UPDATE_AFTER, 0, 30, 2));
        second.addAll(rows(RowKind.DELETE, 30, 35, 0));
        second.addAll(rows(RowKind.INSERT, 40, 60, 2));
        writeRouted(table, 2, 2, 2, 2, second);
        apply(expected, second);
        assertThat(read(table)).containsExactlyElementsOf(sorted(expected));

        // Three assigners, two of them per partition (not a multiple), and three writers.
        List<InternalRow> third = new ArrayList<>(rows(RowKind.UPDATE_AFTER, 10, 60, 3));
        third.addAll(rows(RowKind.INSERT, 60, 90, 3));
        third.addAll(rows(RowKind.DELETE, 0, 5, 0));
        writeRouted(table, 3, 3, 2, 3, third);
        apply(expected, third);
        assertThat(read(table)).containsExactlyElementsOf(sorted(expected));

        // Keys kept their buckets throughout; a single writer that assigns itself agrees with the index.
        Map<String, Integer> now = bucketsOfKeys(table);
        bucketOfKey.forEach((key, bucket) -> {
            if (now.containsKey(key)) {
                assertThat(now.get(key)).as("bucket of key %s", key).isEqualTo(bucket);
            }
        });
        List<InternalRow> fourth = rows(RowKind.INSERT, 0, 90, 4);
        try (TableWrite w = table.newWrite()) {
            for (InternalRow r : fourth) {
                w.write(r);
            }
            table.newStreamCommit("job").commit(4, w.prepareCommit());
        }
        apply(expected, fourth);
        assertThat(read(table)).containsExactlyElementsOf(sorted(expected));
        assertThat(bucketsOfKeys(table)).containsAllEntriesOf(now);
    }

    /** The bucket of each live key, from the data files; fails if a key lives in two buckets. */
    private static Map<String, Integer> bucketsOfKeys(FileStoreTable table) throws Exception {
        Map<String, Integer> out = new HashMap<>();
        for (var split : table.newReadBuilder().newScan().plan().splits()) {
            DataSplit ds = (DataSplit) split;
            List<String> rows = new ArrayList<>();
            table.newReadBuilder().newRead().createReader(List.of(ds))
                    .forEachRemaining(r -> rows.add(r.intAt(0) + "/" + r.intAt(1)));
            for (String key : rows) {
                Integer before = out.put(key, ds.bucket());
                assertThat(before).as("key %s in buckets %s and %s", key, before, ds.bucket()).isNull();
            }
        }
        return out;
    }

    @Test
    void ignoredDeletesGetNoBucketAndNoIndexEntry() throws Exception {
        FileStoreTable table = create("ignore-delete", "true");
        TableBucketAssigner assigner = table.newBucketAssigner(WriteContext.single());
        assertThat(assigner.assign(row(RowKind.DELETE, 0, 1, 0))).isEqualTo(-1);
        assertThat(assigner.newKeys()).isZero();
        assertThat(assigner.assign(row(RowKind.INSERT, 0, 1, 0))).isZero();
        assertThat(assigner.newKeys()).isOne();
    }

    @Test
    void writesWithAssignedBucketsTakeOnlyRowsWithTheirBucket() throws Exception {
        FileStoreTable table = create();
        try (TableWrite w = table.newWrite(WriteContext.single().withAssignedBuckets())) {
            assertThatThrownBy(() -> w.write(row(RowKind.INSERT, 0, 1, 1)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("write(row, bucket)");
            assertThatThrownBy(() -> w.write(row(RowKind.INSERT, 0, 1, 1), -1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bucket -1");
        }
        try (TableWrite w = table.newWrite()) {
            assertThatThrownBy(() -> w.write(row(RowKind.INSERT, 0, 1, 1), 0))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("assigns dynamic buckets itself");
        }
        FileStoreTable fixed = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("f").toString()),
                Schema.newBuilder().column("id", DataTypes.INT()).primaryKey("id").option("bucket", "2").build());
        assertThatThrownBy(() -> fixed.newBucketAssigner(WriteContext.single()))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("'bucket' = 2");
    }
}
