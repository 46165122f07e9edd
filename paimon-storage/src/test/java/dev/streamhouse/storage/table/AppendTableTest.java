package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.serialization.DataSplitSerializer;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AppendTableTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable create(Schema schema) throws Exception {
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), schema);
    }

    @Test
    void commitsBecomeSnapshotsAndOldSnapshotsStayReadable() throws Exception {
        FileStoreTable table = create(TestTables.simpleSchema());
        assertThat(TestTables.readAll(table)).isEmpty();
        assertThat(table.newReadBuilder().newScan().plan().splits()).isEmpty();

        List<InternalRow> first = TestTables.rows(0, 10, 2);
        List<InternalRow> second = TestTables.rows(10, 5, 2);
        TestTables.write(table, first);
        TestTables.write(table, second);

        Snapshot latest = table.latestSnapshot().orElseThrow();
        assertThat(latest.id()).isEqualTo(2);
        assertThat(latest.commitKind()).isEqualTo(CommitKind.APPEND);
        assertThat(latest.totalRecordCount()).isEqualTo(15);
        assertThat(latest.deltaRecordCount()).isEqualTo(5);
        assertThat(latest.commitIdentifier()).isEqualTo(Long.MAX_VALUE);

        List<InternalRow> all = new ArrayList<>(first);
        all.addAll(second);
        assertThat(TestTables.readAll(table)).isEqualTo(TestTables.show(all));
        assertThat(TestTables.read(table.newReadBuilder().withSnapshot(1))).isEqualTo(TestTables.show(first));
        assertThatThrownBy(() -> table.newReadBuilder().withSnapshot(7).newScan().plan())
                .hasMessageContaining("snapshot 7").hasMessageContaining("default.test");
    }

    @Test
    void partitionFilterPrunesSplitsAndValueFilterPrunesFiles() throws Exception {
        FileStoreTable table = create(TestTables.simpleSchema());
        TestTables.write(table, TestTables.rows(0, 30, 3));
        TestTables.write(table, TestTables.rows(100, 30, 3));
        PredicateBuilder pb = new PredicateBuilder(table.rowType());

        List<DataSplit> all = table.newReadBuilder().newScan().plan().splits();
        assertThat(all).hasSize(3);
        assertThat(all.stream().mapToInt(s -> s.files().size()).sum()).isEqualTo(6);

        ReadBuilder byPartition = table.newReadBuilder().withFilter(pb.equal(2, "d1"));
        assertThat(byPartition.newScan().plan().splits()).hasSize(1);
        assertThat(TestTables.read(byPartition)).hasSize(20).allMatch(r -> r.endsWith("d1)"));

        ReadBuilder byValue = table.newReadBuilder().withFilter(pb.greaterOrEqual(0, 100));
        assertThat(byValue.newScan().plan().splits().stream().mapToInt(s -> s.files().size()).sum()).isEqualTo(3);
        assertThat(TestTables.read(byValue)).isEqualTo(TestTables.show(TestTables.rows(100, 30, 3)));

        ReadBuilder none = table.newReadBuilder().withFilter(pb.greaterThan(0, 1000));
        assertThat(none.newScan().plan().splits()).isEmpty();
    }

    @Test
    void projectionWithFilterOnAnotherColumn() throws Exception {
        FileStoreTable table = create(TestTables.simpleSchema());
        TestTables.write(table, TestTables.rows(0, 12, 3));
        PredicateBuilder pb = new PredicateBuilder(table.rowType());
        ReadBuilder rb = table.newReadBuilder().withProjection(List.of("name")).withFilter(pb.lessThan(0, 3));
        assertThat(rb.readType().fieldNames()).containsExactly("name");
        assertThat(TestTables.read(rb)).containsExactly("+I(name-0)", "+I(name-1)", "+I(name-2)");
    }

    @Test
    void filesRollAtTheTargetSize() throws Exception {
        FileStoreTable table = create(TestTables.simpleSchema("target-file-size", "8 kb"));
        TestTables.write(table, TestTables.rows(0, 20_000, 1));
        List<DataSplit> splits = table.newReadBuilder().newScan().plan().splits();
        assertThat(splits).hasSize(1);
        assertThat(splits.get(0).files().size()).isGreaterThan(3);
        assertThat(TestTables.readAll(table)).hasSize(20_000);
        long rows = splits.get(0).files().stream().mapToLong(f -> f.rowCount()).sum();
        assertThat(rows).isEqualTo(20_000);
    }

    @Test
    void aBucketsFilesArePackedInOrderIntoSplitsOfTheTargetSize() throws Exception {
        FileStoreTable table = create(TestTables.simpleSchema("target-file-size", "8 kb",
                "source.split.target-size", "20 kb", "source.split.open-file-cost", "1 kb"));
        TestTables.write(table, TestTables.rows(0, 20_000, 1));
        List<DataFileMeta> files = table.newReadBuilder().newScan().plan().splits().stream()
                .flatMap(s -> s.files().stream()).toList();
        List<DataSplit> splits = table.newReadBuilder().newScan().plan().splits();
        assertThat(splits).hasSizeGreaterThan(1);
        // in file order, none over the target unless it holds a single file, none that could take the next file
        assertThat(splits.stream().flatMap(s -> s.files().stream()).toList()).isEqualTo(files);
        for (int i = 0; i < splits.size(); i++) {
            long size = splits.get(i).files().stream().mapToLong(f -> Math.max(f.fileSize(), 1024)).sum();
            assertThat(size <= 20 * 1024 || splits.get(i).files().size() == 1).as("split %s", i).isTrue();
            if (i + 1 < splits.size()) {
                long next = Math.max(splits.get(i + 1).files().get(0).fileSize(), 1024);
                assertThat(size + next).as("split %s could take the next file", i).isGreaterThan(20 * 1024);
            }
            assertThat(splits.get(i).bucket()).isEqualTo(splits.get(0).bucket());
        }
        assertThat(TestTables.readAll(table)).isEqualTo(TestTables.show(TestTables.rows(0, 20_000, 1)));

        // with the default target (128 MB) the small files of the bucket stay one split
        FileStoreTable defaults = table.copy(java.util.Map.of("source.split.target-size", "128 mb"));
        assertThat(defaults.newReadBuilder().newScan().plan().splits()).hasSize(1);
    }

    @Test
    void manifestsAreMergedAcrossManyCommits() throws Exception {
        FileStoreTable table = create(TestTables.simpleSchema("manifest.merge-min-count", "5"));
        List<InternalRow> all = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            List<InternalRow> batch = TestTables.rows(i * 4, 4, 2);
            TestTables.write(table, batch);
            all.addAll(batch);
        }
        Snapshot latest = table.latestSnapshot().orElseThrow();
        List<ManifestFileMeta> manifests = table.snapshotEntries().dataManifests(latest);
        assertThat(manifests.size()).isLessThan(10);
        assertThat(TestTables.readAll(table)).isEqualTo(TestTables.show(all));
    }

    @Test
    void fixedBucketsNeedABucketKeyAndSpreadRows() throws Exception {
        assertThatThrownBy(() -> create(TestTables.simpleSchema("bucket", "4")))
                .hasMessageContaining("bucket-key");
        FileStoreTable table = create(TestTables.simpleSchema("bucket", "4", "bucket-key", "id"));
        TestTables.write(table, TestTables.rows(0, 40, 1));
        List<DataSplit> splits = table.newReadBuilder().newScan().plan().splits();
        assertThat(splits).hasSize(4);
        assertThat(splits).allMatch(s -> s.totalBuckets() == 4);
        assertThat(TestTables.readAll(table)).hasSize(40);
    }

    @Test
    void writerRejectsBadRowsWithClearMessages() throws Exception {
        FileStoreTable table = create(Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("name", DataTypes.STRING())
                .build());
        try (TableWrite w = table.newWrite()) {
            assertThatThrownBy(() -> w.write(GenericRow.of(null, BinaryString.fromString("x"))))
                    .hasMessageContaining("'id'").hasMessageContaining("NOT NULL");
            assertThatThrownBy(() -> w.write(GenericRow.ofKind(RowKind.DELETE, 1, null)))
                    .hasMessageContaining("append table");
            assertThatThrownBy(() -> w.write(GenericRow.of(1)))
                    .hasMessageContaining("1 fields").hasMessageContaining("2");
        }
    }

    @Test
    void tablesSurviveJavaSerializationAndSplitsTheirSerializer() throws Exception {
        FileStoreTable table = create(TestTables.simpleSchema());
        TestTables.write(table, TestTables.rows(0, 10, 2));
        FileStoreTable copy = roundTrip(table);
        List<DataSplit> splits = new ArrayList<>();
        for (DataSplit split : copy.newReadBuilder().newScan().plan().splits()) {
            splits.add(DataSplitSerializer.INSTANCE.deserialize(DataSplitSerializer.INSTANCE.serialize(split)));
        }
        List<String> rows = new ArrayList<>();
        copy.newReadBuilder().newRead().createReader(splits).forEachRemaining(r -> rows.add(r.toString()));
        assertThat(rows).hasSize(10);
        TestTables.write(copy, TestTables.rows(10, 5, 2));
        assertThat(TestTables.readAll(table)).hasSize(15);
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T value) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void closingAWriteWithoutCommittingLeavesNoFiles() throws Exception {
        FileStoreTable table = create(TestTables.simpleSchema());
        try (TableWrite w = table.newWrite()) {
            for (InternalRow r : TestTables.rows(0, 50, 2)) {
                w.write(r);
            }
        }
        try (var files = java.nio.file.Files.walk(tmp.resolve("t"))) {
            assertThat(files.filter(p -> p.toString().endsWith(".parquet"))).isEmpty();
        }
        assertThat(table.latestSnapshot()).isEmpty();
    }
}
