package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static dev.streamhouse.storage.manifest.ManifestTestData.PARTITION_TYPE;
import static dev.streamhouse.storage.manifest.ManifestTestData.add;
import static dev.streamhouse.storage.manifest.ManifestTestData.fullFile;
import static dev.streamhouse.storage.manifest.ManifestTestData.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManifestCacheTest {
    @TempDir
    java.nio.file.Path tmp;

    private final TestFileIO fileIO = new TestFileIO();
    private Path manifestDir;

    @BeforeEach
    void setUp() {
        manifestDir = new Path(tmp.toString() + "/db.db/t/manifest");
    }

    /** Writes manifests of {@code entries} entries each with a writer that does not cache. */
    private List<ManifestFileMeta> manifests(int count, int entries) throws Exception {
        ManifestFile writer = new ManifestFile(fileIO, manifestDir, PARTITION_TYPE, "zstd", 1, 8 << 20);
        List<ManifestFileMeta> out = new ArrayList<>();
        for (int m = 0; m < count; m++) {
            List<ManifestEntry> list = new ArrayList<>();
            for (int i = 0; i < entries; i++) {
                list.add(add(partition("p" + m, i), 0, fullFile("f-" + m + "-" + i, 0, 0)));
            }
            out.addAll(writer.write(list));
        }
        return out;
    }

    private ManifestFile reader(ManifestCache cache) {
        return new ManifestFile(fileIO, manifestDir, PARTITION_TYPE, "zstd", 1, 8 << 20, cache);
    }

    private static long weight(List<ManifestEntry> entries) {
        return entries.stream().mapToLong(ManifestCache::estimatedHeapBytes).sum();
    }

    @Test
    void aSecondReadIsAnsweredFromTheCacheWithTheSameEntries() throws Exception {
        ManifestFileMeta m = manifests(1, 50).get(0);
        ManifestCache cache = new ManifestCache(1 << 20, 64 << 20);
        ManifestFile mf = reader(cache);
        List<ManifestEntry> first = mf.read(m.fileName(), m.fileSize());
        fileIO.inputStreamsOpened.set(0);

        List<ManifestEntry> second = mf.read(m.fileName(), m.fileSize());

        assertThat(second).isEqualTo(first).hasSize(50);
        assertThat(fileIO.inputStreamsOpened.get()).as("files opened for the second read").isZero();
        assertThat(cache.hitsAndMisses()).containsExactly(1, 1);
        assertThat(cache.usedBytes()).isEqualTo(weight(first));
        assertThatThrownBy(() -> second.add(first.get(0))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void theLeastRecentlyUsedManifestsAreDroppedToStayWithinTheBudget() throws Exception {
        List<ManifestFileMeta> ms = manifests(4, 20);
        long one = weight(reader(ManifestCache.NONE).read(ms.get(0).fileName(), ms.get(0).fileSize()));
        // room for two manifests and a half
        ManifestCache cache = new ManifestCache(1 << 20, one * 5 / 2);
        ManifestFile mf = reader(cache);
        mf.read(ms.get(0).fileName(), ms.get(0).fileSize());
        mf.read(ms.get(1).fileName(), ms.get(1).fileSize());
        mf.read(ms.get(0).fileName(), ms.get(0).fileSize()); // 0 used more recently than 1
        mf.read(ms.get(2).fileName(), ms.get(2).fileSize()); // drops 1

        assertThat(cache.cachedFiles()).isEqualTo(2);
        assertThat(cache.usedBytes()).isLessThanOrEqualTo(one * 5 / 2);
        fileIO.inputStreamsOpened.set(0);
        mf.read(ms.get(0).fileName(), ms.get(0).fileSize());
        mf.read(ms.get(2).fileName(), ms.get(2).fileSize());
        assertThat(fileIO.inputStreamsOpened.get()).as("cached manifests 0 and 2 opened").isZero();
        mf.read(ms.get(1).fileName(), ms.get(1).fileSize());
        assertThat(fileIO.inputStreamsOpened.get()).as("dropped manifest 1 read again").isEqualTo(1);
    }

    @Test
    void largeFilesAndEntriesOverTheBudgetAreNotKept() throws Exception {
        ManifestFileMeta m = manifests(1, 30).get(0);
        long entries = weight(reader(ManifestCache.NONE).read(m.fileName(), m.fileSize()));

        ManifestCache smallThreshold = new ManifestCache(m.fileSize() - 1, 64 << 20);
        reader(smallThreshold).read(m.fileName(), m.fileSize());
        assertThat(smallThreshold.cachedFiles()).as("file above the small-file threshold").isZero();

        ManifestCache smallBudget = new ManifestCache(1 << 20, entries - 1);
        reader(smallBudget).read(m.fileName(), m.fileSize());
        assertThat(smallBudget.cachedFiles()).as("entries above the budget").isZero();
        assertThat(smallBudget.usedBytes()).isZero();

        ManifestCache unknownSize = new ManifestCache(1 << 20, 64 << 20);
        reader(unknownSize).read(m.fileName(), null);
        assertThat(unknownSize.cachedFiles()).as("file of unknown size").isZero();
    }

    @Test
    void catalogOptionsTurnTheCacheOffOrLetLargeFilesIn() throws Exception {
        ManifestFileMeta m = manifests(1, 30).get(0);

        ManifestCache off = ManifestCache.fromCatalogOptions(Options.of("cache-enabled", "false"));
        reader(off).read(m.fileName(), m.fileSize());
        assertThat(off.cachedFiles()).isZero();

        ManifestCache defaults = ManifestCache.fromCatalogOptions(new Options());
        reader(defaults).read(m.fileName(), m.fileSize());
        assertThat(defaults.cachedFiles()).isEqualTo(1);

        Options tiny = Options.of("cache.manifest.small-file-threshold", "1 b");
        ManifestCache thresholdOnly = ManifestCache.fromCatalogOptions(tiny);
        reader(thresholdOnly).read(m.fileName(), m.fileSize());
        assertThat(thresholdOnly.cachedFiles()).isZero();

        tiny.set("cache.manifest.max-memory", "16 mb");
        ManifestCache anySize = ManifestCache.fromCatalogOptions(tiny);
        reader(anySize).read(m.fileName(), m.fileSize());
        assertThat(anySize.cachedFiles()).isEqualTo(1);
    }

    @Test
    void aReadOfWantedPartitionsGivesTheWantedEntriesOfAWholeRead() throws Exception {
        ManifestFile writer = new ManifestFile(fileIO, manifestDir, PARTITION_TYPE, "zstd", 1, 8 << 20);
        List<ManifestEntry> entries = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            BinaryRow p = partition(i % 3 == 0 ? null : "p" + i % 4, i % 5 == 0 ? null : i % 2);
            DataFileMeta f = i % 2 == 0 ? fullFile("f" + i, i % 3, 0) : ManifestTestData.minimalFile("f" + i, 0, 0);
            entries.add(i % 7 == 0 ? ManifestTestData.delete(p, i % 3, f) : add(p, i % 3, f));
        }
        ManifestFileMeta m = writer.write(entries).get(0);
        BinaryRow wantedPartition = partition("p1", 1);
        java.util.function.BiPredicate<BinaryRow, Integer> wanted =
                (partition, bucket) -> partition.equals(wantedPartition) || bucket == 2;
        List<ManifestEntry> expected = entries.stream()
                .filter(e -> wanted.test(e.partition(), e.bucket())).collect(java.util.stream.Collectors.toList());
        assertThat(expected).hasSizeBetween(10, 50);

        // decoded entry by entry, skipping the others (no cache), and filtered from the cache
        assertThat(reader(ManifestCache.NONE).read(m.fileName(), m.fileSize(), EntryFilters.where(wanted))).isEqualTo(expected);
        ManifestCache cache = new ManifestCache(1 << 20, 64 << 20);
        assertThat(reader(cache).read(m.fileName(), m.fileSize(), EntryFilters.where(wanted))).isEqualTo(expected);
        assertThat(cache.cachedFiles()).isEqualTo(1);
        assertThat(reader(ManifestCache.NONE).read(m.fileName(), m.fileSize(), EntryFilters.where((p, b) -> false))).isEmpty();
        assertThat(reader(ManifestCache.NONE).read(m.fileName(), m.fileSize(), EntryFilters.where((p, b) -> true))).isEqualTo(entries);
    }

    @Test
    void theEstimateGrowsWithWhatAnEntryHolds() {
        BinaryRow p = partition("a", 1);
        long small = ManifestCache.estimatedHeapBytes(add(p, 0, ManifestTestData.minimalFile("f", 0, 0)));
        long full = ManifestCache.estimatedHeapBytes(add(p, 0, fullFile("f", 0, 0)));
        long longName = ManifestCache.estimatedHeapBytes(add(p, 0, fullFile("f".repeat(1000), 0, 0)));
        assertThat(small).isGreaterThan(400);
        assertThat(full).isGreaterThan(small);
        assertThat(longName).isGreaterThanOrEqualTo(full + 2 * 999);
    }
}
