package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** Scans skip the buckets that rows with the filter's bucket-key literals cannot live in. */
class BucketPruningTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable table(String name, boolean primaryKey, String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.BIGINT())
                .column("k2", DataTypes.STRING())
                .column("v", DataTypes.INT());
        if (primaryKey) {
            b.primaryKey("id", "k2");
        }
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        FileStoreTable t = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve(name).toString()), b.build());
        List<InternalRow> rows = new ArrayList<>();
        for (long id = 0; id < 60; id++) {
            rows.add(GenericRow.of(id, BinaryString.fromString("k" + (id % 3)), (int) id * 10));
        }
        TestTables.write(t, rows);
        return t;
    }

    /** Bucket of each id, as the writer placed it (from a full scan, one split per bucket). */
    private static Map<Long, Integer> bucketOfId(FileStoreTable t) throws Exception {
        Map<Long, Integer> out = new TreeMap<>();
        for (DataSplit split : t.newReadBuilder().newScan().plan().splits()) {
            try (var reader = t.newReadBuilder().newRead().createReader(split)) {
                var batch = reader.readBatch();
                while (batch != null) {
                    InternalRow r;
                    while ((r = batch.next()) != null) {
                        out.put(r.longAt(0), split.bucket());
                    }
                    batch.releaseBatch();
                    batch = reader.readBatch();
                }
            }
        }
        return out;
    }

    private static List<Integer> plannedBuckets(FileStoreTable t, Predicate filter) {
        return t.newReadBuilder().withFilter(filter).newScan().plan().splits().stream()
                .map(DataSplit::bucket).sorted().toList();
    }

    @Test
    void equalityOnEveryBucketKeyColumnReadsOneBucketAndFindsTheRow() throws Exception {
        FileStoreTable t = table("pk", true, "bucket", "4", "bucket-key", "id");
        Map<Long, Integer> buckets = bucketOfId(t);
        assertThat(buckets).hasSize(60);
        assertThat(new java.util.HashSet<>(buckets.values())).hasSize(4);
        PredicateBuilder pb = new PredicateBuilder(t.rowType());
        for (long id = 0; id < 60; id++) {
            Predicate filter = pb.equal(0, id);
            assertThat(plannedBuckets(t, filter)).as("id %s", id).containsExactly(buckets.get(id));
            assertThat(TestTables.read(t.newReadBuilder().withFilter(filter)))
                    .contains("+I(" + id + ", k" + (id % 3) + ", " + id * 10 + ")");
        }
        assertThat(plannedBuckets(t, pb.in(0, List.of(3L, 4L))))
                .containsExactlyElementsOf(new java.util.TreeSet<>(List.of(buckets.get(3L), buckets.get(4L))));
        assertThat(plannedBuckets(t, PredicateBuilder.and(pb.or(pb.equal(0, 7L), pb.equal(0, 8L)), pb.greaterThan(2, 0))))
                .containsExactlyElementsOf(new java.util.TreeSet<>(List.of(buckets.get(7L), buckets.get(8L))));
        assertThat(plannedBuckets(t, pb.greaterThan(0, 5L))).containsExactly(0, 1, 2, 3);
        assertThat(plannedBuckets(t, pb.or(pb.equal(0, 7L), pb.equal(2, 80)))).containsExactly(0, 1, 2, 3);
    }

    @Test
    void aBucketKeyColumnWithoutLiteralsMeansNoPruning() throws Exception {
        FileStoreTable t = table("pk2", true, "bucket", "4");
        PredicateBuilder pb = new PredicateBuilder(t.rowType());
        assertThat(plannedBuckets(t, pb.equal(0, 7L))).containsExactly(0, 1, 2, 3);
        List<Integer> both = plannedBuckets(t, PredicateBuilder.and(pb.equal(0, 7L),
                pb.equal(1, BinaryString.fromString("k1"))));
        assertThat(both).hasSize(1);
        assertThat(TestTables.read(t.newReadBuilder().withFilter(PredicateBuilder.and(pb.equal(0, 7L),
                pb.equal(1, BinaryString.fromString("k1")))))).contains("+I(7, k1, 70)");
    }

    @Test
    void appendTablesWithABucketKeyAndTheModFunctionArePrunedToo() throws Exception {
        FileStoreTable t = table("append", false, "bucket", "3", "bucket-key", "id", "bucket-function.type", "mod");
        PredicateBuilder pb = new PredicateBuilder(t.rowType());
        assertThat(plannedBuckets(t, pb.equal(0, 7L))).containsExactly(1);
        assertThat(TestTables.read(t.newReadBuilder().withFilter(pb.equal(0, 7L))))
                .contains("+I(7, k1, 70)");
        FileStoreTable unaware = table("unaware", false);
        assertThat(plannedBuckets(unaware, new PredicateBuilder(unaware.rowType()).equal(0, 7L))).containsExactly(0);
    }
}
