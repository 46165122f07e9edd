package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static dev.streamhouse.storage.manifest.ManifestTestData.PARTITION_TYPE;
import static dev.streamhouse.storage.manifest.ManifestTestData.add;
import static dev.streamhouse.storage.manifest.ManifestTestData.delete;
import static dev.streamhouse.storage.manifest.ManifestTestData.fullFile;
import static dev.streamhouse.storage.manifest.ManifestTestData.minimalFile;
import static dev.streamhouse.storage.manifest.ManifestTestData.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FileEntriesTest {
    @TempDir
    java.nio.file.Path tmp;

    private final TestFileIO fileIO = new TestFileIO();
    private Path tableRoot;
    private ManifestFile mf;

    @BeforeEach
    void setUp() {
        tableRoot = new Path(tmp.toString() + "/db.db/t");
        mf = new ManifestFile(fileIO, new Path(tableRoot, "manifest"), PARTITION_TYPE, "zstd", 1, 8 << 20);
    }

    private List<ManifestFileMeta> write(ManifestEntry... entries) throws Exception {
        return mf.write(List.of(entries));
    }

    @Test
    void liveFilesAreAddsNotDeletedAnywhere() throws Exception {
        BinaryRow p = partition("a", 1);
        DataFileMeta f1 = minimalFile("f1", 0, 0);
        DataFileMeta f2 = fullFile("f2", 0, 0);
        DataFileMeta f3 = minimalFile("f3", 0, 0);
        List<ManifestFileMeta> manifests = new ArrayList<>();
        manifests.addAll(write(add(p, 0, f1), add(p, 0, f2), add(p, 1, f3)));
        // f1 deleted; f2 upgraded from level 0 to 5; the f3 DELETE is for bucket 0, a different identity
        manifests.addAll(write(delete(p, 0, f1), delete(p, 0, f2), add(p, 0, f2.upgrade(5)), delete(p, 0, f3)));

        assertThat(FileEntries.liveEntries(mf, manifests))
                .containsExactly(add(p, 1, f3), add(p, 0, f2.upgrade(5)));
    }

    @Test
    void liveFilesOfWantedEntriesCancelDeletesOfTheSamePartitionOnly() throws Exception {
        BinaryRow a = partition("a", 1);
        BinaryRow b = partition("b", 2);
        DataFileMeta f1 = minimalFile("f1", 0, 0);
        DataFileMeta f2 = minimalFile("f2", 0, 0);
        List<ManifestFileMeta> manifests = new ArrayList<>();
        manifests.addAll(write(add(a, 0, f1), add(b, 0, f1), add(a, 0, f2), add(b, 0, f2)));
        // f1 deleted in partition a, f2 in partition b: each partition keeps the other file
        manifests.addAll(write(delete(a, 0, f1), delete(b, 0, f2)));

        assertThat(FileEntries.liveEntries(mf, manifests, EntryFilters.where((partition, bucket) -> partition.equals(a))))
                .containsExactly(add(a, 0, f2));
        assertThat(FileEntries.liveEntries(mf, manifests, EntryFilters.where((partition, bucket) -> partition.equals(b))))
                .containsExactly(add(b, 0, f1));
        assertThat(FileEntries.liveEntries(mf, manifests))
                .containsExactly(add(b, 0, f1), add(a, 0, f2));
    }

    @Test
    void readsManifestsOnlyWhenTheirCountsSaySoAndEachAtMostOnce() throws Exception {
        BinaryRow p = partition("a", 1);
        List<ManifestFileMeta> manifests = new ArrayList<>(write(add(p, 0, minimalFile("f1", 0, 0))));
        manifests.addAll(write(delete(p, 0, minimalFile("f1", 0, 0)), add(p, 0, minimalFile("f2", 0, 0))));
        ManifestFileMeta real = manifests.get(0);
        // a manifest that claims to be empty is never opened, so a missing file does not matter
        manifests.add(new ManifestFileMeta("manifest-missing-0", 10, 0, 0, real.partitionStats(), 0, null, null, null, null));
        fileIO.inputStreamsOpened.set(0);

        assertThat(FileEntries.liveEntries(mf, manifests)).containsExactly(add(p, 0, minimalFile("f2", 0, 0)));
        assertThat(fileIO.inputStreamsOpened.get()).isEqualTo(2);
    }

    @Test
    void addingTheSameFileTwiceFailsNamingManifestAndTable() throws Exception {
        BinaryRow p = partition("a", 1);
        List<ManifestFileMeta> manifests = new ArrayList<>(write(add(p, 0, minimalFile("dup", 0, 0))));
        manifests.addAll(write(add(p, 0, minimalFile("dup", 0, 0))));
        assertThatThrownBy(() -> FileEntries.liveEntries(mf, manifests))
                .isInstanceOf(CorruptManifestException.class)
                .hasMessageContaining("of table " + tableRoot)
                .hasMessageContaining(manifests.get(1).fileName())
                .hasMessageContaining("file=dup");
        assertThatThrownBy(() -> FileEntries.mergeManifests(mf, manifests))
                .isInstanceOf(CorruptManifestException.class).hasMessageContaining("already added");
    }

    @Test
    void mergeCancelsAddAndDeleteAndKeepsForeignDeletes() throws Exception {
        BinaryRow p = partition("a", 1);
        List<ManifestFileMeta> manifests = new ArrayList<>(write(add(p, 0, minimalFile("f1", 0, 0)), add(p, 0, minimalFile("f2", 0, 0))));
        manifests.addAll(write(delete(p, 0, minimalFile("f1", 0, 0)), delete(p, 0, minimalFile("old", 0, 0))));
        assertThat(FileEntries.mergeManifests(mf, manifests))
                .containsExactly(add(p, 0, minimalFile("f2", 0, 0)), delete(p, 0, minimalFile("old", 0, 0)));
    }

    @Test
    void mergeRejectsReAddingADeletedIdentity() throws Exception {
        BinaryRow p = partition("a", 1);
        List<ManifestFileMeta> manifests = new ArrayList<>(write(delete(p, 0, minimalFile("f1", 0, 0))));
        manifests.addAll(write(add(p, 0, minimalFile("f1", 0, 0))));
        assertThatThrownBy(() -> FileEntries.mergeManifests(mf, manifests))
                .isInstanceOf(CorruptManifestException.class).hasMessageContaining("re-added after being deleted");
    }
}
