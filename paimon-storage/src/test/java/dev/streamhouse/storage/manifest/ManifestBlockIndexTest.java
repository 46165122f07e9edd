package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.stats.SimpleStats;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.streamhouse.storage.manifest.ManifestTestData.PARTITION_TYPE;
import static dev.streamhouse.storage.manifest.ManifestTestData.add;
import static dev.streamhouse.storage.manifest.ManifestTestData.delete;
import static dev.streamhouse.storage.manifest.ManifestTestData.fullFile;
import static dev.streamhouse.storage.manifest.ManifestTestData.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Block indexes of manifests the cache does not keep whole: built on a read, used by later reads. */
class ManifestBlockIndexTest {
    @TempDir
    java.nio.file.Path tmp;

    private final TestFileIO fileIO = new TestFileIO();
    private Path manifestDir;

    @BeforeEach
    void setUp() {
        manifestDir = new Path(tmp.toString() + "/db.db/t/manifest");
    }

    /** 40 partitions of 50 entries (some DELETEs, three buckets), in {@code sorted} partition order or shuffled. */
    private List<ManifestEntry> entries(boolean sorted) {
        List<ManifestEntry> out = new ArrayList<>();
        for (int p = 0; p < 40; p++) {
            BinaryRow partition = partition(p % 9 == 0 ? null : "d", p);
            for (int i = 0; i < 50; i++) {
                DataFileMeta f = fullFile("f-" + p + "-" + i, i % 3, 0);
                out.add(i % 11 == 0 ? delete(partition, i % 3, f) : add(partition, i % 3, f));
            }
        }
        if (sorted) {
            out.sort(new PartitionOrder(PARTITION_TYPE));
        } else {
            Collections.shuffle(out, new Random(7));
        }
        return out;
    }

    private ManifestFileMeta write(List<ManifestEntry> entries) throws Exception {
        // a 64 KB target makes 16 KB blocks (see ManifestFile#write): a few partitions per block
        List<ManifestFileMeta> written = new ManifestFile(fileIO, manifestDir, PARTITION_TYPE, "zstd", 1, 64 << 10)
                .write(entries);
        assertThat(written).hasSize(1);
        return written.get(0);
    }

    /** A cache that keeps no file whole (threshold 1 byte), so it keeps block indexes. */
    private static ManifestCache indexingCache() {
        return new ManifestCache(1, 64 << 20);
    }

    private ManifestFile reader(ManifestCache cache) {
        return new ManifestFile(fileIO, manifestDir, PARTITION_TYPE, "zstd", 1, 8 << 20, cache);
    }

    /** Counts the entries a read tests and those it passes over by their block's statistics. */
    private static final class Counting implements EntryFilter {
        final EntryFilter filter;
        long tested;
        long skipped;

        Counting(EntryFilter filter) {
            this.filter = filter;
        }

        @Override
        public boolean matches(BinaryRow partition, int bucket) {
            tested++;
            return filter.matches(partition, bucket);
        }

        @Override
        public boolean mayMatch(long count, SimpleStats stats, Integer minBucket, Integer maxBucket) {
            return filter.mayMatch(count, stats, minBucket, maxBucket);
        }

        @Override
        public void skipped(long entries) {
            skipped += entries;
        }
    }

    private static List<ManifestEntry> expected(List<ManifestEntry> all, EntryFilter filter) {
        return all.stream().filter(e -> filter.matches(e.partition(), e.bucket())).collect(Collectors.toList());
    }

    @Test
    void theIndexDescribesEveryBlockOfTheFile() throws Exception {
        List<ManifestEntry> all = entries(true);
        ManifestFileMeta m = write(all);
        ManifestCache cache = indexingCache();
        assertThat(reader(cache).read(m.fileName(), m.fileSize(), EntryFilters.where((p, b) -> true))).isEqualTo(all);

        ManifestBlockIndex index = cache.blockIndex(reader(cache).path(m.fileName()).toString());
        assertThat(index).isNotNull();
        assertThat(index.blocks()).hasSizeGreaterThan(3);
        assertThat(index.blocks().stream().mapToLong(ManifestBlockIndex.Block::count).sum()).isEqualTo(all.size());
        assertThat(index.blocks()).isSortedAccordingTo((a, b) -> Long.compare(a.position(), b.position()));
        PartitionStatsFilter stats = new PartitionStatsFilter(PARTITION_TYPE);
        int next = 0;
        for (ManifestBlockIndex.Block block : index.blocks()) {
            for (int i = 0; i < block.count(); i++) {
                ManifestEntry e = all.get(next++);
                assertThat(stats.mayContain(block.partitionStats(), e.partition())).isTrue();
                assertThat(e.bucket()).isBetween(block.minBucket(), block.maxBucket());
            }
        }
        assertThat(cache.usedBytes()).isEqualTo(index.estimatedHeapBytes());
        assertThat(cache.hitsAndMisses()).containsExactly(0, 0);
    }

    @Test
    void readsByTheIndexGiveWhatAWholeReadGivesAndSkipOtherPartitionsBlocks() throws Exception {
        List<ManifestEntry> all = entries(true);
        ManifestFileMeta m = write(all);
        ManifestCache cache = indexingCache();
        ManifestFile mf = reader(cache);
        BinaryRow one = partition("d", 13);
        EntryFilter onePartition = ManifestFilter.partitions(PARTITION_TYPE, Set.of(one));

        Counting first = new Counting(onePartition);
        List<ManifestEntry> firstRead = mf.read(m.fileName(), m.fileSize(), first);
        assertThat(firstRead).hasSize(50).isEqualTo(expected(all, onePartition));
        assertThat(first.tested).as("the read building the index tests every entry").isEqualTo(all.size());

        Counting second = new Counting(onePartition);
        long bytesBefore = fileIO.bytesRead.get();
        assertThat(mf.read(m.fileName(), m.fileSize(), second)).isEqualTo(firstRead);
        assertThat(second.tested).as("only the blocks holding the partition are decoded").isLessThan(all.size() / 4);
        assertThat(fileIO.bytesRead.get() - bytesBefore).as("only the header and those blocks are read")
                .isPositive().isLessThan(m.fileSize() / 4);
        assertThat(second.tested + second.skipped).isEqualTo(all.size());

        // other filters through the same index: several partitions, nulls, a bucket, nothing
        List<EntryFilter> filters = List.of(
                ManifestFilter.partitions(PARTITION_TYPE, Set.of(partition(null, 9), partition("d", 39), one)),
                ManifestFilter.partitions(PARTITION_TYPE, Set.of(partition("d", 2))).withBucket(1),
                ManifestFilter.partitions(PARTITION_TYPE, Set.of(partition("nowhere", 1))),
                ManifestFilter.partitions(PARTITION_TYPE, Set.of()),
                ManifestFilter.ALL.withBucket(2));
        for (EntryFilter filter : filters) {
            Counting counting = new Counting(filter);
            assertThat(mf.read(m.fileName(), m.fileSize(), counting)).isEqualTo(expected(all, filter));
            assertThat(counting.tested + counting.skipped).isEqualTo(all.size());
        }
    }

    @Test
    void aFileCutShortAfterItsIndexWasBuiltIsReportedCorruptByName() throws Exception {
        List<ManifestEntry> all = entries(true);
        ManifestFileMeta m = write(all);
        ManifestFile mf = reader(indexingCache());
        EntryFilter last = ManifestFilter.partitions(PARTITION_TYPE, Set.of(partition("d", 39)));
        assertThat(mf.read(m.fileName(), m.fileSize(), last)).isEqualTo(expected(all, last));

        java.nio.file.Path file = java.nio.file.Paths.get(mf.path(m.fileName()).path());
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.WRITE)) {
            channel.truncate(m.fileSize() / 2);
        }
        assertThatThrownBy(() -> mf.read(m.fileName(), m.fileSize(), last))
                .isInstanceOf(CorruptManifestException.class)
                .hasMessageContaining(m.fileName())
                .hasMessageContaining("truncated");
    }

    @Test
    void anUnsortedFileIsReadRightThroughItsIndexToo() throws Exception {
        List<ManifestEntry> all = entries(false);
        ManifestFileMeta m = write(all);
        ManifestCache cache = indexingCache();
        ManifestFile mf = reader(cache);
        EntryFilter filter = ManifestFilter.partitions(PARTITION_TYPE, Set.of(partition("d", 5), partition(null, 18)));
        List<ManifestEntry> wanted = expected(all, filter);
        assertThat(wanted).hasSize(100);
        assertThat(mf.read(m.fileName(), m.fileSize(), filter)).isEqualTo(wanted);
        assertThat(mf.read(m.fileName(), m.fileSize(), filter)).isEqualTo(wanted);
        assertThat(mf.read(m.fileName(), m.fileSize(), EntryFilters.where((p, b) -> true))).isEqualTo(all);
    }

    @Test
    void indexesShareTheCachesBudgetAndNoneIsKeptWithoutACache() throws Exception {
        ManifestFileMeta first = write(entries(true));
        ManifestFileMeta second = write(entries(false));
        EntryFilter filter = ManifestFilter.partitions(PARTITION_TYPE, Set.of(partition("d", 5)));
        ManifestCache probe = indexingCache();
        reader(probe).read(first.fileName(), first.fileSize(), filter);
        long oneIndex = probe.usedBytes();
        assertThat(oneIndex).isPositive();

        // room for one index: the second read's index pushes out the first
        ManifestCache small = new ManifestCache(1, oneIndex + oneIndex / 2);
        ManifestFile mf = reader(small);
        mf.read(first.fileName(), first.fileSize(), filter);
        mf.read(second.fileName(), second.fileSize(), filter);
        assertThat(small.cachedFiles()).isEqualTo(1);
        assertThat(small.blockIndex(mf.path(first.fileName()).toString())).isNull();
        assertThat(small.blockIndex(mf.path(second.fileName()).toString())).isNotNull();
        assertThat(small.usedBytes()).isLessThanOrEqualTo(oneIndex + oneIndex / 2);

        assertThat(ManifestCache.NONE.keepsBlockIndexes()).isFalse();
        reader(ManifestCache.NONE).read(first.fileName(), first.fileSize(), filter);
        assertThat(ManifestCache.NONE.cachedFiles()).isZero();
    }
}
