package dev.streamhouse.storage.table;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A truncated or garbled snapshot, manifest list, manifest or data file gives an error naming the
 * file and the table, and neither reading nor a following commit deletes anything.
 */
class CorruptFilesTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable table;
    private java.nio.file.Path root;

    private void createTableWithTwoCommits() throws Exception {
        root = tmp.resolve("t");
        table = TestTables.create(LocalFileIO.INSTANCE, new Path(root.toString()), TestTables.simpleSchema());
        TestTables.write(table, TestTables.rows(0, 20, 2));
        TestTables.write(table, TestTables.rows(20, 20, 2));
    }

    private List<java.nio.file.Path> allFiles() throws Exception {
        try (var walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
    }

    private static void truncate(java.nio.file.Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    }

    /** Reads fail naming the file; a commit, which must read the file, fails naming it too. */
    private void assertFailsNaming(String fileName) throws Exception {
        assertFailsNaming(fileName, true);
    }

    private void assertFailsNaming(String fileName, boolean commitReadsIt) throws Exception {
        List<java.nio.file.Path> before = allFiles();
        assertThatThrownBy(() -> TestTables.readAll(FileStoreTable.load(LocalFileIO.INSTANCE,
                        new Path(root.toString()), "default.test")))
                .satisfies(e -> assertThat(messages(e)).contains(fileName).contains(root.toString()));
        if (commitReadsIt) {
            assertThatThrownBy(() -> TestTables.write(table, TestTables.rows(100, 5, 2)))
                    .satisfies(e -> assertThat(messages(e)).contains(fileName));
        } else {
            // A small manifest is only carried over by name, so appending still works.
            TestTables.write(table, TestTables.rows(100, 5, 2));
        }
        List<java.nio.file.Path> after = allFiles();
        assertThat(after).as("no file was deleted").containsAll(before);
    }

    private static String messages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" | ");
        }
        return sb.toString();
    }

    @Test
    void truncatedSnapshot() throws Exception {
        createTableWithTwoCommits();
        truncate(root.resolve("snapshot/snapshot-2"));
        assertFailsNaming("snapshot-2");
    }

    @Test
    void garbledManifestList() throws Exception {
        createTableWithTwoCommits();
        Snapshot s = table.latestSnapshot().orElseThrow();
        Files.write(root.resolve("manifest").resolve(s.deltaManifestList()), "not avro at all".getBytes());
        assertFailsNaming(s.deltaManifestList());
    }

    @Test
    void truncatedManifest() throws Exception {
        createTableWithTwoCommits();
        Snapshot s = table.latestSnapshot().orElseThrow();
        String manifest = table.snapshotEntries().dataManifests(s).get(0).fileName();
        truncate(root.resolve("manifest").resolve(manifest));
        assertFailsNaming(manifest, false);
    }

    @Test
    void truncatedDataFileFailsTheReadNamingTableFilePartitionAndBucket() throws Exception {
        createTableWithTwoCommits();
        java.nio.file.Path dataFile = firstDataFile();
        truncate(dataFile);
        assertDataFileDamageNamed(dataFile, "truncated");
    }

    @Test
    void dataFileGarbledInTheMiddleFailsTheReadNamingTableFilePartitionAndBucket() throws Exception {
        createTableWithTwoCommits();
        java.nio.file.Path dataFile = firstDataFile();
        garbleMiddle(dataFile);
        assertDataFileDamageNamed(dataFile, "cannot be decoded");
    }

    private java.nio.file.Path firstDataFile() throws Exception {
        try (var walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(".parquet")).sorted().findFirst().orElseThrow();
        }
    }

    /** Overwrites 16 bytes in the middle of the file, keeping its size. */
    static void garbleMiddle(java.nio.file.Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        for (int i = bytes.length / 2 - 8; i < bytes.length / 2 + 8; i++) {
            bytes[i] = (byte) ~bytes[i];
        }
        Files.write(file, bytes);
    }

    private void assertDataFileDamageNamed(java.nio.file.Path dataFile, String what) throws Exception {
        java.nio.file.Path bucketDir = dataFile.getParent();
        String partition = bucketDir.getParent().getFileName().toString(); // dt=...
        String bucket = bucketDir.getFileName().toString().replace("bucket-", "bucket ");
        List<java.nio.file.Path> before = allFiles();
        assertThatThrownBy(() -> TestTables.readAll(table))
                .isInstanceOf(dev.streamhouse.storage.read.CorruptDataFileException.class)
                .hasMessageContaining("data file " + new Path(dataFile.toString()))
                .hasMessageContaining("of table default.test")
                .hasMessageContaining("(partition " + partition + ", " + bucket + ")")
                .hasMessageContaining(what)
                .hasMessageContaining("CALL sys.rollback_to")
                .satisfies(e -> assertThat(e.getCause()).as("the decoder's error stays the cause").isNotNull());
        assertThat(allFiles()).containsAll(before);
    }
}
