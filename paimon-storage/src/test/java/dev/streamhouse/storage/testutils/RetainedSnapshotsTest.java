package dev.streamhouse.storage.testutils;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Self-test of the checks that failure tests run on tables. */
class RetainedSnapshotsTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable table() throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.toString()),
                TestTables.simpleSchema());
        TestTables.write(table, TestTables.rows(0, 10, 2));
        TestTables.write(table, TestTables.rows(10, 10, 2));
        return table;
    }

    @Test
    void aCleanTableHasEveryFileAndNoOrphans() throws Exception {
        FileStoreTable table = table();
        assertThat(RetainedSnapshots.all(table)).hasSize(2);
        assertThat(RetainedSnapshots.assertEveryNeededFileExists(table)).isGreaterThan(4);
        assertThat(RetainedSnapshots.assertOrphanRemovalFindsExactlyTheUnreferencedFiles(table, tmp)).isEmpty();
    }

    @Test
    void strayFilesAreUnreferencedAndFoundByOrphanRemoval() throws Exception {
        FileStoreTable table = table();
        Files.writeString(tmp.resolve("dt=d0").resolve("bucket-0").resolve("data-stray.parquet"), "x");
        Files.writeString(tmp.resolve("manifest").resolve("manifest-stray"), "x");
        Set<String> expected = Set.of("dt=d0/bucket-0/data-stray.parquet", "manifest/manifest-stray");
        assertThat(RetainedSnapshots.unreferencedFiles(table, tmp)).isEqualTo(expected);
        assertThat(RetainedSnapshots.assertOrphanRemovalFindsExactlyTheUnreferencedFiles(table, tmp))
                .isEqualTo(expected);
        assertThat(tmp.resolve("manifest").resolve("manifest-stray")).exists();
    }

    @Test
    void aMissingDataFileIsReported() throws Exception {
        FileStoreTable table = table();
        List<java.nio.file.Path> data;
        try (Stream<java.nio.file.Path> walk = Files.walk(tmp.resolve("dt=d1"))) {
            data = walk.filter(p -> p.getFileName().toString().startsWith("data-")).toList();
        }
        Files.delete(data.get(0));
        assertThatThrownBy(() -> RetainedSnapshots.assertEveryNeededFileExists(table))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(data.get(0).getFileName().toString());
    }
}
