package dev.streamhouse.storage.bucket.dynamic;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.FileOperation;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DynamicBucketAssignerTest {
    private static final BinaryRow P1 = partition(1);
    private static final BinaryRow P2 = partition(2);

    @TempDir
    java.nio.file.Path tmp;

    private Path tableRoot;
    private HashIndexFile indexFile;
    private CommittedIndex committed;

    /** The live HASH index of a table, maintained from commits as docs/format.md §5.6 describes. */
    static final class CommittedIndex implements HashIndexLoader {
        final Map<List<Object>, IndexManifestEntry> live = new LinkedHashMap<>();

        void commit(List<IndexChange> changes) {
            for (IndexManifestEntry e : DynamicBucketAssigner.manifestEntries(changes)) {
                List<Object> key = List.of(e.partition(), e.bucket(), e.indexFile().indexType());
                if (e.kind() == FileKind.DELETE) {
                    assertThat(live.remove(key)).as("deleted entry must be live").isEqualTo(
                            new IndexManifestEntry(FileKind.ADD, e.partition(), e.bucket(), e.indexFile()));
                } else {
                    assertThat(live).as("one file per (partition, bucket)").doesNotContainKey(key);
                    live.put(key, e);
                }
            }
        }

        @Override
        public List<IndexManifestEntry> hashIndexEntries(BinaryRow partition) {
            return live.values().stream().filter(e -> e.partition().equals(partition)).toList();
        }
    }

    static BinaryRow partition(int p) {
        return new BinaryRowConverter(List.of(DataTypes.INT())).toBinaryRow(new Object[] {p});
    }

    @BeforeEach
    void setUp() {
        tableRoot = new Path(tmp.toString() + "/db.db/t");
        indexFile = new HashIndexFile(LocalFileIO.INSTANCE, tableRoot);
        committed = new CommittedIndex();
    }

    private DynamicBucketAssigner assigner(long target, int max, AssignerRouting routing) {
        return new DynamicBucketAssigner(indexFile, committed, target, max, routing);
    }

    @Test
    void prepareCommitWritesCompleteFilesOfChangedBucketsAndReplacesTheOldOnes() throws Exception {
        DynamicBucketAssigner a = assigner(2, -1, AssignerRouting.single());
        assertThat(IntStream.of(10, 11, 12).map(h -> assign(a, P1, h)).toArray()).containsExactly(0, 0, 1);
        assertThat(assign(a, P2, 10)).isEqualTo(0);

        List<IndexChange> first = a.prepareCommit();
        assertThat(first).extracting(c -> c.partition().intAt(0) + "/" + c.bucket()).containsExactly("1/0", "1/1", "2/0");
        assertThat(first).allSatisfy(c -> assertThat(c.replacedFile()).isNull());
        assertThat(indexFile.read(first.get(0).newFile())).containsExactly(10, 11);
        assertThat(first.get(0).manifestEntries()).extracting(IndexManifestEntry::kind).containsExactly(FileKind.ADD);
        committed.commit(first);
        assertThat(a.prepareCommit()).isEmpty();

        assign(a, P1, 11);                        // known key (e.g. an update or a -D): no change
        assertThat(a.prepareCommit()).isEmpty();
        assertThat(assign(a, P1, 13)).isEqualTo(1);
        List<IndexChange> second = a.prepareCommit();
        assertThat(second).hasSize(1);
        IndexChange c = second.get(0);
        assertThat(c.bucket()).isEqualTo(1);
        assertThat(c.replacedFile()).isEqualTo(first.get(1).newFile());
        assertThat(indexFile.read(c.newFile())).containsExactly(12, 13);
        assertThat(c.newFile().rowCount()).isEqualTo(2);
        assertThat(c.manifestEntries()).extracting(IndexManifestEntry::kind).containsExactly(FileKind.DELETE, FileKind.ADD);
        committed.commit(second);
        assertThat(committed.hashIndexEntries(P1)).hasSize(2);
    }

    @Test
    void aRestoredAssignerContinuesExactlyLikeTheOriginal() throws Exception {
        for (AssignerRouting routing : List.of(AssignerRouting.single(), new AssignerRouting(2, 2, 1),
                new AssignerRouting(4, 2, 2))) {
            committed = new CommittedIndex();
            DynamicBucketAssigner original = assigner(5, -1, routing);
            SplittableRandom random = new SplittableRandom(42);
            List<int[]> firstRound = keys(random, routing, 300);
            firstRound.forEach(k -> assign(original, partition(k[0]), k[1]));
            committed.commit(original.prepareCommit());

            DynamicBucketAssigner restored = assigner(5, -1, routing);
            List<int[]> secondRound = keys(random, routing, 300);
            secondRound.addAll(firstRound.subList(0, 50)); // old keys come back too
            for (int[] k : secondRound) {
                assertThat(assign(restored, partition(k[0]), k[1])).as("%s key %s", routing, k[1])
                        .isEqualTo(assign(original, partition(k[0]), k[1]));
            }
            // Both write the same content for the same (partition, bucket)s (partitions in first-use order).
            java.util.Comparator<IndexChange> order = java.util.Comparator.<IndexChange>comparingInt(c -> c.partition().intAt(0))
                    .thenComparingInt(IndexChange::bucket);
            List<IndexChange> a = original.prepareCommit().stream().sorted(order).toList();
            List<IndexChange> b = restored.prepareCommit().stream().sorted(order).toList();
            assertThat(a).isNotEmpty();
            assertThat(b).extracting(c -> c.partition().intAt(0) + "/" + c.bucket())
                    .isEqualTo(a.stream().map(c -> c.partition().intAt(0) + "/" + c.bucket()).toList());
            for (int i = 0; i < a.size(); i++) {
                assertThat(indexFile.read(b.get(i).newFile())).containsExactly(indexFile.read(a.get(i).newFile()));
                assertThat(b.get(i).replacedFile()).isEqualTo(a.get(i).replacedFile());
            }
        }
    }

    /** Random (partition in {1, 2}, key hash) pairs routed to {@code routing}, some repeated. */
    private static List<int[]> keys(SplittableRandom random, AssignerRouting routing, int count) {
        List<int[]> keys = new ArrayList<>();
        while (keys.size() < count) {
            int p = 1 + random.nextInt(2);
            int hash = keys.isEmpty() || random.nextInt(5) > 0 ? random.nextInt() : keys.get(random.nextInt(keys.size()))[1];
            if (routing.receives(partition(p).formatHash(), hash)) {
                keys.add(new int[] {p, hash});
            }
        }
        return keys;
    }

    @Test
    void restoreKeepsOnlyRoutedHashesButWritesCompleteFiles() throws Exception {
        // Round 1: one assigner fills bucket 0 (4 keys) and opens bucket 1 (1 key).
        DynamicBucketAssigner single = assigner(4, -1, AssignerRouting.single());
        int[] hashes = {1, 2, 3, 4, 5};
        for (int h : hashes) {
            single.assign(P1, h);
        }
        committed.commit(single.prepareCommit());

        // Round 2: two assigners. Assigner 1 owns odd buckets: bucket 1 (1 key) has room for 3 more.
        AssignerRouting routing = new AssignerRouting(2, 2, 1);
        DynamicBucketAssigner second = assigner(4, -1, routing);
        List<Integer> mine = new ArrayList<>();
        for (int h = 100; mine.size() < 4; h++) {
            if (routing.receives(P1.formatHash(), h)) {
                mine.add(h);
            }
        }
        assertThat(mine.stream().map(h -> assign(second, P1, h)).toList()).containsExactly(1, 1, 1, 3);
        List<IndexChange> changes = second.prepareCommit();
        assertThat(changes).extracting(IndexChange::bucket).containsExactly(1, 3);
        // Bucket 1's new file keeps hash 5 even if it is routed to the other assigner.
        assertThat(indexFile.read(changes.get(0).newFile())).containsExactlyInAnyOrder(5, mine.get(0), mine.get(1),
                mine.get(2));
        assertThat(indexFile.read(changes.get(1).newFile())).containsExactly(mine.get(3));
    }

    @Test
    void rejectsKeysRoutedToAnotherAssigner() {
        AssignerRouting routing = new AssignerRouting(2, 2, 0);
        DynamicBucketAssigner a = assigner(4, -1, routing);
        int foreign = IntStream.range(0, 10).filter(h -> !routing.receives(P1.formatHash(), h)).findFirst().orElseThrow();
        assertThatThrownBy(() -> a.assign(P1, foreign)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("belongs to assigner");
    }

    @Test
    void rejectsALoaderThatReturnsForeignEntries() {
        IndexFileMeta dv = new IndexFileMeta(IndexFileMeta.DELETION_VECTORS_INDEX, "index-x-0", 1, 1, List.of(), null);
        DynamicBucketAssigner a = new DynamicBucketAssigner(indexFile,
                p -> List.of(new IndexManifestEntry(FileKind.ADD, P1, 0, dv)), 4, -1, AssignerRouting.single());
        assertThatThrownBy(() -> a.assign(P1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("HASH");
    }

    @Test
    void aFailedPrepareCommitDeletesItsFilesAndCanBeRepeated() throws Exception {
        FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);
        try {
            HashIndexFile failingFile = new HashIndexFile(io, tableRoot);
            DynamicBucketAssigner a = new DynamicBucketAssigner(failingFile, committed, 1, -1, AssignerRouting.single());
            for (int h = 0; h < 3; h++) {
                a.assign(P1, h);
            }
            io.arm(3); // the second file's close: open, close (file 1), open, close (file 2)
            assertThatThrownBy(a::prepareCommit).isInstanceOf(IOException.class);
            assertThat(LocalFileIO.INSTANCE.list(new Path(tableRoot, "index"))).isEmpty();
            List<IndexChange> changes = a.prepareCommit();
            assertThat(changes).extracting(IndexChange::bucket).containsExactly(0, 1, 2);
            assertThat(LocalFileIO.INSTANCE.list(new Path(tableRoot, "index"))).hasSize(3);
        } finally {
            io.release();
        }
    }

    @Test
    void anAssignOnlyAssignerCountsNewKeysAndWritesNoFiles() throws Exception {
        DynamicBucketAssigner a = assigner(2, -1, AssignerRouting.single()).assignOnly();
        a.assign(P1, 1);
        a.assign(P1, 2);
        a.assign(P1, 1);
        assertThat(a.newKeys()).isEqualTo(2);
        assertThat(a.memoryBytes()).isLessThan(1024);
        assertThatThrownBy(a::prepareCommit).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("only assigns");
    }

    @Test
    void anAssignerOfAnOverlappingLayoutDoesNotWriteIndexFiles() throws Exception {
        int task = AssignerRouting.channel(P1.formatHash(), 0, 3, 2);
        AssignerRouting routing = new AssignerRouting(3, 2, task);
        DynamicBucketAssigner a = assigner(2, -1, routing);
        assertThat(a.assign(P1, 0)).isEqualTo(task % 2);
        assertThatThrownBy(a::prepareCommit).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("may open the same buckets");
    }

    @Test
    void optionsComeFromTheTableOptions() throws Exception {
        Options options = Options.of("dynamic-bucket.target-row-num", "2", "dynamic-bucket.max-buckets", "2");
        DynamicBucketAssigner a = DynamicBucketAssigner.create(options, indexFile, committed, AssignerRouting.single());
        assertThat(IntStream.range(0, 6).map(h -> assign(a, P1, h)).filter(b -> b > 1).count()).isZero();
        assertThatThrownBy(() -> DynamicBucketAssigner.create(Options.of("dynamic-bucket.max-buckets", "0"), indexFile,
                committed, AssignerRouting.single())).hasMessageContaining("max-buckets");
    }

    @Test
    void oneMillionKeysFitInAFewTensOfMegabytes() throws Exception {
        DynamicBucketAssigner a = assigner(2_000_000, -1, AssignerRouting.single());
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 1_000_000; i++) {
            a.assign(P1, random.nextInt());
        }
        // ~12 MiB of hash map plus ~4 MiB of hashes pending until the next commit.
        assertThat(a.memoryBytes()).isBetween(12L << 20, 24L << 20);
        committed.commit(a.prepareCommit());
        assertThat(a.memoryBytes()).isBetween(12L << 20, 13L << 20);
        assertThat(committed.hashIndexEntries(P1)).singleElement()
                .satisfies(e -> assertThat(e.indexFile().rowCount()).isBetween(999_000L, 1_000_000L));
    }

    private static int assign(DynamicBucketAssigner a, BinaryRow partition, int hash) {
        try {
            return a.assign(partition, hash);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
