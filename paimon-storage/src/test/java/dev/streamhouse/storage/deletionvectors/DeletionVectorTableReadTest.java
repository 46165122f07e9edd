package dev.streamhouse.storage.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataReadBuilder;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The read path of tables with deletion vectors, on a table whose vectors this store's own writer
 * ({@link DeletionVectorIndexFile}) wrote: the files of a primary-key table (several levels above 0
 * with overlapping keys, retractions, level-0 files on top) get the vectors a merge-on-write compaction
 * would give them, derived here from the files' contents, plus vectors that delete the only remaining
 * version of some keys (how a delete looks once compaction dropped its retraction). Batch reads must
 * then show exactly the newest visible version above level 0 of each key, with projection and filter
 * too; the first plan of a streaming read every level merged, vectors applied (with the lookup
 * producer the levels above 0); full splits carry their deletion
 * files, so reading them reads no index manifest.
 */
class DeletionVectorTableReadTest {
    private static final String NAME = "db.dv";

    @TempDir
    java.nio.file.Path dir;

    private static GenericRow row(RowKind kind, String dt, int id, String v) {
        return GenericRow.ofKind(kind, BinaryString.fromString(dt), id, v == null ? null : BinaryString.fromString(v));
    }

    private static void write(FileStoreTable table, List<InternalRow> rows) throws Exception {
        try (TableWrite w = table.newWrite(); BatchTableCommit c = table.newBatchCommit()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            c.commit(w.prepareCommit());
        }
    }

    private static void compactAll(FileStoreTable table, boolean full) throws Exception {
        try (TableWrite w = table.newWrite(); BatchTableCommit c = table.newBatchCommit()) {
            Set<PartitionBucket> done = new HashSet<>();
            for (DataSplit s : table.newReadBuilder().newScan().plan().splits()) {
                if (done.add(new PartitionBucket(s.partition(), s.bucket()))) {
                    w.compact(s.partition(), s.bucket(), full);
                }
            }
            c.commit(w.prepareCommit());
        }
    }

    /** One stored version of a key, where it is stored. */
    private record Version(String key, long sequence, RowKind kind, GenericRow row, DataFileMeta file, long position) {}

    @Test
    void batchAndStreamingReadsApplyTheVectorsOurWriterStored() throws Exception {
        Path root = new Path(dir.toString() + "/db.db/dv");
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, root, Schema.newBuilder()
                .column("dt", DataTypes.STRING()).column("id", DataTypes.INT()).column("v", DataTypes.STRING())
                .partitionKeys("dt").primaryKey("dt", "id")
                .option("bucket", "2").option("num-sorted-run.compaction-trigger", "2")
                .build());
        // A large first version of every key, compacted to the last level; two small rounds of changes of
        // some keys (updates, deletes), which universal compaction merges into a level above it; then a
        // level-0 file (write-only) on top.
        java.util.Random random = new java.util.Random(11);
        List<InternalRow> a = new ArrayList<>();
        List<InternalRow> b1 = new ArrayList<>();
        List<InternalRow> b2 = new ArrayList<>();
        List<InternalRow> c = new ArrayList<>();
        for (String dt : List.of("p0", "p1")) {
            for (int id = 0; id < 150; id++) {
                a.add(row(RowKind.INSERT, dt, id, "a" + id + "-" + Long.toHexString(random.nextLong())
                        + Long.toHexString(random.nextLong())));
                if (id >= 40) {
                    continue;
                }
                if (id % 3 == 0) {
                    b1.add(row(RowKind.INSERT, dt, id, "b" + id));
                } else if (id % 5 == 1 && dt.equals("p0")) {
                    // retractions only in p0: its buckets are merged, p1's read raw
                    b1.add(row(RowKind.DELETE, dt, id, null));
                }
                if (id % 7 == 0) {
                    b2.add(row(RowKind.INSERT, dt, id, "bb" + id));
                }
                if (id % 4 == 2) {
                    c.add(row(RowKind.INSERT, dt, id, "c" + id));
                }
            }
        }
        write(table, a);
        compactAll(table, true);
        write(table, b1);
        write(table, b2);
        compactAll(table, false);
        write(table.copy(Map.of("write-only", "true")), c);
        List<String> latest = TestTables.readAll(table);

        // The stored versions, bucket by bucket, each with its file and row position.
        Map<PartitionBucket, List<Version>> versions = new LinkedHashMap<>();
        Map<PartitionBucket, Integer> totalBuckets = new HashMap<>();
        KeyValueLayout layout = KeyValueLayout.of(table.schema());
        KeyValueFileReaderFactory files = new KeyValueFileReaderFactory(LocalFileIO.INSTANCE, table.paths(), layout,
                table.schemaCache(), new int[] {0, 1, 2}, null);
        Set<Integer> levels = new java.util.TreeSet<>();
        for (ManifestEntry e : table.newFileStoreScan().plan().files()) {
            PartitionBucket bucket = new PartitionBucket(e.partition(), e.bucket());
            totalBuckets.put(bucket, e.totalBuckets());
            levels.add(e.file().level());
            long[] position = {0};
            RecordReader<KeyValue> reader = files.createReader(e.partition(), e.bucket(), e.file());
            reader.forEachRemaining(kv -> {
                InternalRow v = kv.value();
                GenericRow copy = row(RowKind.INSERT, v.stringAt(0).toString(), v.intAt(1),
                        v.isNullAt(2) ? null : v.stringAt(2).toString());
                versions.computeIfAbsent(bucket, k -> new ArrayList<>()).add(new Version(
                        copy.stringAt(0) + "/" + copy.intAt(1), kv.sequenceNumber(), kv.valueKind(), copy,
                        e.file(), position[0]++));
            });
        }
        // what this test needs of the table: level 0 on top of two levels above it
        assertThat(levels).as("levels of the live files").hasSizeGreaterThanOrEqualTo(3).contains(0);

        // Vectors as merge-on-write would leave them: above level 0 only each key's newest version stays,
        // and keys with id % 7 == 4 lost that one too (deleted, the retraction already dropped).
        Map<PartitionBucket, Map<String, BitmapDeletionVector.Builder>> vectors = new LinkedHashMap<>();
        Map<String, Version> visibleNewest = new TreeMap<>();
        Map<String, Version> streamNewest = new TreeMap<>();
        List<String> naive = new ArrayList<>();
        for (Map.Entry<PartitionBucket, List<Version>> bucket : versions.entrySet()) {
            Map<String, Version> newestAbove0 = new HashMap<>();
            for (Version v : bucket.getValue()) {
                if (v.file().level() > 0) {
                    newestAbove0.merge(v.key(), v, (x, y) -> x.sequence() >= y.sequence() ? x : y);
                }
            }
            for (Version v : bucket.getValue()) {
                if (v.file().level() == 0) {
                    streamNewest.merge(v.key(), v, (x, y) -> x.sequence() >= y.sequence() ? x : y);
                    continue;
                }
                if (!v.kind().isRetract()) {
                    naive.add(v.row().toString());
                }
                boolean dropped = v.row().intAt(1) % 7 == 4;
                if (newestAbove0.get(v.key()) != v || dropped) {
                    vectors.computeIfAbsent(bucket.getKey(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(v.file().fileName(), f -> BitmapDeletionVector.builder())
                            .delete(v.position());
                } else {
                    visibleNewest.put(v.key(), v);
                    streamNewest.merge(v.key(), v, (x, y) -> x.sequence() >= y.sequence() ? x : y);
                }
            }
        }
        List<String> expectedBatch = show(visibleNewest);
        List<String> expectedStream = show(streamNewest);
        naive.sort(null);
        assertThat(naive).as("a read that ignores the vectors").isNotEqualTo(expectedBatch);
        assertThat(expectedStream).as("level 0 matters").isNotEqualTo(expectedBatch).isNotEqualTo(latest);

        // Turn the option on, as Paimon would have created the table, and store the vectors.
        TableSchema plain = table.schema();
        Map<String, String> options = new HashMap<>(plain.options());
        options.put("deletion-vectors.enabled", "true");
        assertThat(new SchemaManager(LocalFileIO.INSTANCE, root, NAME).commitNewVersion(new TableSchema(
                plain.version(), plain.id() + 1, plain.fields(), plain.highestFieldId(), plain.partitionKeys(),
                plain.primaryKeys(), options, null, 0L))).isTrue();
        FileStoreTable dv = FileStoreTable.load(LocalFileIO.INSTANCE, root, NAME);
        DeletionVectorIndexFile indexFiles = DeletionVectorIndexFile.of(LocalFileIO.INSTANCE, root, NAME,
                dv.schema().tableOptions());
        List<CommitMessage> messages = new ArrayList<>();
        for (Map.Entry<PartitionBucket, Map<String, BitmapDeletionVector.Builder>> e : vectors.entrySet()) {
            Map<String, BitmapDeletionVector> built = new LinkedHashMap<>();
            e.getValue().forEach((file, builder) -> built.put(file, builder.build()));
            IndexFileMeta meta = indexFiles.write(built);
            messages.add(new CommitMessage(e.getKey().partition(), e.getKey().bucket(), totalBuckets.get(e.getKey()),
                    new DataIncrement(List.of(), List.of(), List.of(), List.of(meta), List.of()),
                    CompactIncrement.EMPTY));
        }
        try (BatchTableCommit commit = dv.newBatchCommit()) {
            commit.commit(messages);
        }

        // Batch: level 0 is not visible, every file above it is read raw or merged without its deleted rows.
        List<DataSplit> splits = dv.newReadBuilder().newScan().plan().splits();
        assertThat(splits).allSatisfy(s -> assertThat(s.files()).allSatisfy(f -> assertThat(f.level()).isPositive()));
        assertThat(splits).anySatisfy(s -> assertThat(s.rawConvertible()).isTrue())
                .anySatisfy(s -> assertThat(s.rawConvertible()).isFalse());
        assertThat(TestTables.readAll(dv)).isEqualTo(expectedBatch);

        DataReadBuilder projected = dv.newReadBuilder().withProjection(List.of("v", "id"))
                .withFilter(new PredicateBuilder(dv.rowType()).greaterThan(1, 20));
        List<String> expectedProjected = new ArrayList<>();
        for (Version v : visibleNewest.values()) {
            if (!v.kind().isRetract() && v.row().intAt(1) > 20) {
                expectedProjected.add(GenericRow.of(v.row().field(2), v.row().intAt(1)).toString());
            }
        }
        expectedProjected.sort(null);
        assertThat(TestTables.read(projected)).isEqualTo(expectedProjected).isNotEmpty();

        // Full splits carry where the vectors of their files are: one deletion file per data file that has one.
        Set<String> filesWithVectors = new HashSet<>();
        vectors.values().forEach(byFile -> filesWithVectors.addAll(byFile.keySet()));
        assertThat(splits).allSatisfy(s -> {
            assertThat(s.deletionFiles()).hasSameSizeAs(s.files());
            for (int i = 0; i < s.files().size(); i++) {
                assertThat(s.deletionFiles().get(i) != null).as(s.files().get(i).fileName())
                        .isEqualTo(filesWithVectors.contains(s.files().get(i).fileName()));
            }
        });
        assertThat(splits).flatExtracting(DataSplit::deletionFiles).doesNotContainNull().isNotEmpty();

        // A plan reads the snapshot's index manifest once for all its splits (a table's first plan also
        // checks its index files, once); reading the splits reads only the index files, never the manifest.
        CountingFileIO counting = new CountingFileIO();
        FileStoreTable counted = FileStoreTable.load(counting, root, NAME);
        DataReadBuilder countedRead = counted.newReadBuilder();
        assertThat(countedRead.newScan().plan().splits()).hasSize(4);
        assertThat(counting.opened("manifest", "index-manifest-")).isEqualTo(2);
        counting.opens.clear();
        List<DataSplit> countedSplits = countedRead.newScan().plan().splits();
        assertThat(counting.opened("manifest", "index-manifest-")).isEqualTo(1);
        counting.opens.clear();
        assertThat(readRows(countedRead, countedSplits)).isEqualTo(expectedBatch);
        assertThat(counting.opened("manifest", "index-manifest-")).isZero();
        assertThat(counting.opened("index", "index-")).isGreaterThanOrEqualTo(4);

        // Streaming: the first plan is the full snapshot of every level, merged, vectors applied.
        DataReadBuilder stream = dv.newReadBuilder();
        StreamTableScan scan = stream.newStreamScan();
        List<DataSplit> firstPlan = scan.plan().splits();
        assertThat(firstPlan).flatExtracting(DataSplit::files).extracting(DataFileMeta::level).contains(0);
        assertThat(firstPlan).allSatisfy(s -> assertThat(s.deletionFiles()).hasSameSizeAs(s.files()));
        assertThat(readRows(stream, firstPlan)).isEqualTo(expectedStream);

        // With the lookup producer it is the files above level 0, read with their vectors (raw where no file
        // holds retractions), as Paimon plans it: the batch view. (Deletion vectors with full-compaction are
        // refused, as Paimon refuses them; that producer's first-plan rule is tested without them.)
        DataReadBuilder lookup = dv.copy(Map.of("changelog-producer", "lookup")).newReadBuilder();
        List<DataSplit> lookupPlan = lookup.newStreamScan().plan().splits();
        assertThat(lookupPlan).allSatisfy(s -> {
            assertThat(s.rawConvertible()).isEqualTo(s.files().stream().allMatch(f -> f.deleteRowCountOrZero() == 0));
            assertThat(s.files()).allSatisfy(f -> assertThat(f.level()).isPositive());
        });
        assertThat(lookupPlan).flatExtracting(DataSplit::deletionFiles).doesNotContainNull().isNotEmpty();
        assertThat(lookupPlan).anySatisfy(s -> assertThat(s.rawConvertible()).isTrue());
        assertThat(readRows(lookup, lookupPlan)).isEqualTo(expectedBatch);

        // Splits serialized before they carried deletion files look them up from their snapshot.
        List<DataSplit> withoutDeletionFiles = new ArrayList<>();
        for (DataSplit s : splits) {
            withoutDeletionFiles.add(new DataSplit(s.snapshotId(), s.partition(), s.bucket(), s.totalBuckets(),
                    s.files(), s.rawConvertible()));
        }
        assertThat(readRows(dv.newReadBuilder(), withoutDeletionFiles)).isEqualTo(expectedBatch);

        // Reading a split reads no index manifest: with the snapshot's gone, planned splits still read,
        // those without deletion files fail naming the snapshot.
        String indexManifest = dv.latestSnapshot().orElseThrow().indexManifest();
        LocalFileIO.INSTANCE.delete(dv.indexManifestFile().path(indexManifest), false);
        assertThat(readRows(dv.newReadBuilder(), splits)).isEqualTo(expectedBatch);
        assertThatThrownBy(() -> readRows(dv.newReadBuilder(), withoutDeletionFiles))
                .hasMessageContaining("Cannot read the deletion vectors of snapshot " + splits.get(0).snapshotId()
                        + " of table db.dv");

    }

    /** The local file system, counting the input streams opened per path. */
    private static final class CountingFileIO implements dev.streamhouse.storage.fs.FileIO {
        private static final long serialVersionUID = 1L;
        private final dev.streamhouse.storage.fs.FileIO local = LocalFileIO.INSTANCE;
        final List<Path> opens = java.util.Collections.synchronizedList(new ArrayList<>());

        /** Input streams opened of files named {@code prefix...} in a directory named {@code directory}. */
        long opened(String directory, String prefix) {
            synchronized (opens) {
                return opens.stream().filter(p -> p.parent().name().equals(directory) && p.name().startsWith(prefix))
                        .count();
            }
        }

        @Override
        public dev.streamhouse.storage.fs.SeekableInputStream newInputStream(Path path) throws java.io.IOException {
            opens.add(path);
            return local.newInputStream(path);
        }

        @Override
        public dev.streamhouse.storage.fs.PositionOutputStream newOutputStream(Path path, boolean overwrite)
                throws java.io.IOException {
            return local.newOutputStream(path, overwrite);
        }

        @Override
        public dev.streamhouse.storage.fs.FileStatus status(Path path) throws java.io.IOException {
            return local.status(path);
        }

        @Override
        public List<dev.streamhouse.storage.fs.FileStatus> list(Path directory) throws java.io.IOException {
            return local.list(directory);
        }

        @Override
        public boolean exists(Path path) throws java.io.IOException {
            return local.exists(path);
        }

        @Override
        public boolean delete(Path path, boolean recursive) throws java.io.IOException {
            return local.delete(path, recursive);
        }

        @Override
        public void mkdirs(Path path) throws java.io.IOException {
            local.mkdirs(path);
        }

        @Override
        public boolean rename(Path src, Path dst) throws java.io.IOException {
            return local.rename(src, dst);
        }

        @Override
        public boolean createIfAbsent(Path path, byte[] content) throws java.io.IOException {
            return local.createIfAbsent(path, content);
        }
    }

    private static List<String> readRows(DataReadBuilder builder, List<DataSplit> splits) throws Exception {
        List<String> rows = new ArrayList<>();
        builder.newRead().createReader(splits).forEachRemaining(r -> rows.add(
                dev.streamhouse.storage.data.InternalRowUtils.copyToGeneric(r, builder.readType()).toString()));
        rows.sort(null);
        return rows;
    }

    private static List<String> show(Map<String, Version> newest) {
        List<String> out = new ArrayList<>();
        for (Version v : newest.values()) {
            if (!v.kind().isRetract()) {
                out.add(v.row().toString());
            }
        }
        out.sort(null);
        return out;
    }
}
