package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static dev.streamhouse.storage.manifest.ManifestTestData.PARTITION_TYPE;
import static dev.streamhouse.storage.manifest.ManifestTestData.add;
import static dev.streamhouse.storage.manifest.ManifestTestData.delete;
import static dev.streamhouse.storage.manifest.ManifestTestData.fullFile;
import static dev.streamhouse.storage.manifest.ManifestTestData.minimalFile;
import static dev.streamhouse.storage.manifest.ManifestTestData.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManifestFileMergerTest {
    private static final long HUGE = Long.MAX_VALUE;

    @TempDir
    java.nio.file.Path tmp;

    private final TestFileIO fileIO = new TestFileIO();
    private Path manifestDir;

    @BeforeEach
    void setUp() {
        manifestDir = new Path(tmp.toString() + "/db.db/t/manifest");
    }

    private ManifestFile manifestFile(long target) {
        return new ManifestFile(fileIO, manifestDir, PARTITION_TYPE, "zstd", 1, target);
    }

    private static List<ManifestEntry> adds(BinaryRow partition, String prefix, int count) {
        List<ManifestEntry> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(add(partition, 0, fullFile(prefix + i, 0, 0)));
        }
        return out;
    }

    private List<ManifestEntry> entriesOf(List<ManifestFileMeta> metas, ManifestFile mf) throws IOException {
        List<ManifestEntry> out = new ArrayList<>();
        for (ManifestFileMeta m : metas) {
            out.addAll(mf.read(m.fileName(), m.fileSize()));
        }
        return out;
    }

    @Test
    void keepsFewSmallManifestsAsTheyAre() throws Exception {
        ManifestFile mf = manifestFile(8 << 20);
        List<ManifestFileMeta> input = new ArrayList<>();
        input.addAll(mf.write(adds(partition("a", 1), "x", 2)));
        input.addAll(mf.write(adds(partition("a", 1), "y", 2)));
        ManifestFileMerger.Result r = ManifestFileMerger.merge(input, mf, 8 << 20, 30, 16 << 20);
        assertThat(r.merged()).isEqualTo(input);
        assertThat(r.newlyWritten()).isEmpty();
    }

    @Test
    void minorCompactionMergesTheLeftoverGroupAtMergeMinCount() throws Exception {
        ManifestFile mf = manifestFile(8 << 20);
        BinaryRow p = partition("a", 1);
        List<ManifestFileMeta> input = new ArrayList<>();
        input.addAll(mf.write(List.of(add(p, 0, minimalFile("a", 0, 0)))));
        input.addAll(mf.write(List.of(add(p, 0, minimalFile("b", 0, 0)))));
        input.addAll(mf.write(List.of(delete(p, 0, minimalFile("a", 0, 0)), add(p, 0, minimalFile("c", 0, 1)))));

        ManifestFileMerger.Result r = ManifestFileMerger.merge(input, mf, 8 << 20, 3, HUGE);

        assertThat(r.merged()).hasSize(1).isEqualTo(r.newlyWritten());
        ManifestFileMeta merged = r.merged().get(0);
        assertThat(merged.numAddedFiles()).isEqualTo(2);
        assertThat(merged.numDeletedFiles()).isZero();
        assertThat(merged.schemaId()).isEqualTo(1);
        assertThat(mf.read(merged.fileName(), merged.fileSize()))
                .containsExactly(add(p, 0, minimalFile("b", 0, 0)), add(p, 0, minimalFile("c", 0, 1)));
        for (ManifestFileMeta in : input) {
            assertThat(fileIO.exists(mf.path(in.fileName()))).as("inputs are never deleted").isTrue();
        }
    }

    @Test
    void mergedManifestsAreWrittenInPartitionOrderKeepingEachBucketsFileOrder() throws Exception {
        ManifestFile mf = manifestFile(8 << 20);
        BinaryRow b2 = partition("b", 2);
        BinaryRow a1 = partition("a", 1);
        BinaryRow a10 = partition("a", 10);
        BinaryRow nullDt = partition(null, 1);
        List<ManifestFileMeta> input = new ArrayList<>();
        input.addAll(mf.write(List.of(add(b2, 0, minimalFile("1", 0, 0)), add(a10, 1, minimalFile("2", 0, 0)),
                add(a1, 1, minimalFile("3", 0, 0)))));
        input.addAll(mf.write(List.of(add(a1, 0, minimalFile("4", 0, 0)), add(nullDt, 0, minimalFile("5", 0, 0)),
                add(a1, 1, minimalFile("6", 0, 0)), add(b2, 0, minimalFile("7", 0, 0)))));

        ManifestFileMerger.Result r = ManifestFileMerger.merge(input, mf, 8 << 20, 2, HUGE);

        assertThat(r.merged()).hasSize(1);
        // nulls first, "a" before "b", 1 before 10 (by value, not by bytes), then bucket, then as written
        assertThat(entriesOf(r.merged(), mf)).extracting(e -> e.file().fileName())
                .containsExactly("5", "4", "3", "6", "2", "1", "7");
    }

    @Test
    void minorCompactionMergesGroupsReachingTheTargetAndKeepsForeignDeletes() throws Exception {
        ManifestFile big = manifestFile(HUGE);
        BinaryRow p = partition("a", 1);
        List<ManifestFileMeta> input = new ArrayList<>(big.write(adds(p, "big", 60)));
        long target = input.get(0).fileSize();
        input.addAll(big.write(List.of(delete(p, 0, fullFile("big0", 0, 0)))));
        input.addAll(big.write(List.of(add(p, 0, minimalFile("n1", 0, 0)))));

        ManifestFile mf = manifestFile(target);
        ManifestFileMerger.Result r = ManifestFileMerger.merge(input, mf, target, 2, HUGE);

        // the first manifest alone reaches the target: a group of one is kept
        assertThat(r.merged().get(0)).isEqualTo(input.get(0));
        assertThat(r.merged()).hasSize(2);
        assertThat(mf.read(r.merged().get(1).fileName(), null))
                .containsExactly(delete(p, 0, fullFile("big0", 0, 0)), add(p, 0, minimalFile("n1", 0, 0)));
    }

    @Test
    void fullCompactionDropsDeletesAndKeepsUntouchedLargeManifests() throws Exception {
        ManifestFile big = manifestFile(HUGE);
        BinaryRow pa = partition("a", 1);
        BinaryRow pb = partition("b", 1);
        ManifestFileMeta largeA = big.write(adds(pa, "a", 60)).get(0);
        ManifestFileMeta largeB = big.write(adds(pb, "b", 60)).get(0);
        long target = Math.min(largeA.fileSize(), largeB.fileSize());
        ManifestFileMeta smallDelete = big.write(List.of(delete(pb, 0, fullFile("b3", 0, 0)), add(partition("c", 2), 1,
                minimalFile("c0", 0, 0)))).get(0);
        ManifestFileMeta smallAdd = big.write(List.of(add(pb, 2, minimalFile("b-new", 0, 0)))).get(0);
        List<ManifestFileMeta> input = List.of(largeA, largeB, smallDelete, smallAdd);
        List<ManifestEntry> liveBefore = FileEntries.liveEntries(big, input);

        ManifestFile mf = manifestFile(target);
        ManifestFileMerger.Result r = ManifestFileMerger.merge(input, mf, target, 30, 1);

        assertThat(r.merged().get(0)).isEqualTo(largeA);
        assertThat(r.merged()).doesNotContain(largeB, smallDelete, smallAdd);
        assertThat(r.merged().subList(1, r.merged().size())).isEqualTo(r.newlyWritten());
        assertThat(r.newlyWritten()).allSatisfy(m -> assertThat(m.numDeletedFiles()).isZero());
        assertThat(entriesOf(r.newlyWritten(), mf)).allSatisfy(e -> assertThat(e.kind()).isEqualTo(FileKind.ADD))
                .hasSize(60 - 1 + 1 + 1);
        assertThat(new HashSet<>(FileEntries.liveEntries(mf, r.merged()))).isEqualTo(new HashSet<>(liveBefore));
    }

    @Test
    void fullCompactionIsSkippedWhenOnlyOneManifestWouldBeRewritten() throws Exception {
        ManifestFile mf = manifestFile(8 << 20);
        BinaryRow p = partition("a", 1);
        List<ManifestFileMeta> input = mf.write(List.of(add(p, 0, minimalFile("a", 0, 0)), delete(p, 0, minimalFile("a", 0, 0))));
        ManifestFileMerger.Result r = ManifestFileMerger.merge(input, mf, 8 << 20, 30, 1);
        assertThat(r.merged()).isEqualTo(input);
        assertThat(r.newlyWritten()).isEmpty();
    }

    @Test
    void failedMergeDeletesWhatItWroteAndKeepsInputs() throws Exception {
        ManifestFile writer = manifestFile(HUGE);
        BinaryRow p = partition("a", 1);
        List<ManifestFileMeta> input = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            input.addAll(writer.write(adds(p, "m" + i + "-", 40)));
        }
        Set<String> before = names();
        fileIO.failOutputStreamNumber = fileIO.outputStreamsOpened.get() + 2;

        assertThatThrownBy(() -> ManifestFileMerger.merge(input, manifestFile(1024), 8 << 20, 2, HUGE))
                .isInstanceOf(IOException.class).hasMessageContaining("injected");
        assertThat(names()).isEqualTo(before);
    }

    private Set<String> names() throws IOException {
        return fileIO.list(manifestDir).stream().map(FileStatus::path).map(Path::name).collect(Collectors.toSet());
    }

    /**
     * Property: for random histories of commits (new files, deletes, level upgrades) and random merge
     * settings, merging base ++ delta never changes the live file set, which also equals a model.
     */
    @Test
    void mergingNeverChangesTheLiveFileSet() throws Exception {
        long[] targets = {1200, 3000, 9000};
        int[] minCounts = {2, 3, 30};
        long[] thresholds = {1, 4000, 20000, HUGE};
        int merges = 0;
        int mergesThatWrote = 0;
        for (int seed = 0; seed < 36; seed++) {
            Random rnd = new Random(seed);
            long target = targets[seed % targets.length];
            int minCount = minCounts[(seed / 3) % minCounts.length];
            long threshold = thresholds[(seed / 9) % thresholds.length];
            ManifestFile mf = new ManifestFile(fileIO, new Path(manifestDir, "seed-" + seed), PARTITION_TYPE, "zstd", 1, target);
            Map<FileIdentifier, ManifestEntry> model = new HashMap<>();
            List<ManifestFileMeta> base = new ArrayList<>();
            int nextFile = 0;
            for (int commit = 0; commit < 18; commit++) {
                List<ManifestEntry> delta = new ArrayList<>();
                List<ManifestEntry> live = new ArrayList<>(model.values());
                live.sort((a, b) -> (a.file().fileName() + a.file().level()).compareTo(b.file().fileName() + b.file().level()));
                Collections.shuffle(live, rnd);
                int touched = Math.min(live.size(), rnd.nextInt(5));
                for (int i = 0; i < touched; i++) {
                    ManifestEntry victim = live.get(i);
                    delta.add(victim.withKind(FileKind.DELETE));
                    model.remove(victim.identifier());
                    int level = victim.file().level();
                    if (level < 5 && rnd.nextBoolean()) {
                        ManifestEntry upgraded = new ManifestEntry(FileKind.ADD, victim.partition(), victim.bucket(),
                                victim.totalBuckets(), victim.file().upgrade(level + 1 + rnd.nextInt(5 - level)));
                        delta.add(upgraded);
                        model.put(upgraded.identifier(), upgraded);
                    }
                }
                int added = rnd.nextInt(7);
                for (int i = 0; i < added; i++) {
                    String dt = new String[] {"a", "b", "c", null}[rnd.nextInt(4)];
                    String name = "data-" + seed + "-" + nextFile++ + ".parquet";
                    DataFileMeta file = rnd.nextBoolean() ? fullFile(name, 0, rnd.nextInt(3)) : minimalFile(name, 0, rnd.nextInt(3));
                    ManifestEntry e = add(partition(dt, 1 + rnd.nextInt(2)), rnd.nextInt(3), file);
                    delta.add(e);
                    model.put(e.identifier(), e);
                }
                // no identity occurs twice in one delta, so any entry order is valid
                Collections.shuffle(delta, rnd);
                List<ManifestFileMeta> input = new ArrayList<>(base);
                input.addAll(mf.write(delta));

                Set<ManifestEntry> liveBefore = asSet(FileEntries.liveEntries(mf, input));
                ManifestFileMerger.Result r = ManifestFileMerger.merge(input, mf, target, minCount, threshold);
                Set<ManifestEntry> liveAfter = asSet(FileEntries.liveEntries(mf, r.merged()));

                assertThat(liveBefore).as("seed %s commit %s", seed, commit).isEqualTo(new HashSet<>(model.values()));
                assertThat(liveAfter).as("seed %s commit %s", seed, commit).isEqualTo(liveBefore);
                Set<String> inputNames = input.stream().map(ManifestFileMeta::fileName).collect(Collectors.toSet());
                for (ManifestFileMeta m : r.merged()) {
                    assertThat(inputNames.contains(m.fileName()) || r.newlyWritten().contains(m)).isTrue();
                }
                for (ManifestFileMeta m : r.newlyWritten()) {
                    assertThat(inputNames).doesNotContain(m.fileName());
                    assertThat(r.merged()).contains(m);
                    assertThat(mf.read(m.fileName(), m.fileSize())).as("seed %s commit %s", seed, commit)
                            .isSortedAccordingTo(new PartitionOrder(PARTITION_TYPE));
                }
                merges++;
                mergesThatWrote += r.newlyWritten().isEmpty() ? 0 : 1;
                base = r.merged();
            }
        }
        assertThat(merges).isEqualTo(36 * 18);
        assertThat(mergesThatWrote).as("the histories must exercise actual merging").isGreaterThan(100);
    }

    private static Set<ManifestEntry> asSet(List<ManifestEntry> entries) {
        Set<ManifestEntry> set = new HashSet<>(entries);
        assertThat(set).hasSameSizeAs(entries);
        return set;
    }
}
