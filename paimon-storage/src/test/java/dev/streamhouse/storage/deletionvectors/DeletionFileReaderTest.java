package dev.streamhouse.storage.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reading one deletion vector by its {@link DeletionFile}: every vector of index files in both
 * layouts reads back from its range alone, and a range that contradicts the file (version byte, size,
 * recorded length, CRC, cardinality, truncation, a missing file) fails naming the index file, the data
 * file and the table.
 */
class DeletionFileReaderTest {
    @TempDir
    java.nio.file.Path dir;

    private final DeletionFileReader reader = new DeletionFileReader(LocalFileIO.INSTANCE, "db.t");

    private static Map<String, BitmapDeletionVector> vectors() {
        Map<String, BitmapDeletionVector> vectors = new LinkedHashMap<>();
        vectors.put("data-a.parquet", BitmapDeletionVector.of(1, 3));
        vectors.put("data-b.parquet", BitmapDeletionVector.of(0));
        vectors.put("data-c.parquet", BitmapDeletionVector.of(7, 70_000, 1_000_000));
        return vectors;
    }

    private DeletionVectorIndexFile indexFiles(BitmapLayout layout) {
        return new DeletionVectorIndexFile(LocalFileIO.INSTANCE, new Path(dir.toString()), "db.t", layout, 1 << 20);
    }

    private static DeletionFile deletionFile(DeletionVectorIndexFile files, IndexFileMeta meta, int i) {
        DeletionVectorMeta range = meta.deletionVectorRanges().get(i);
        return new DeletionFile(files.path(meta).toString(), range.offset(), range.length(), range.cardinality());
    }

    @Test
    void everyVectorReadsBackFromItsRangeInBothLayouts() throws Exception {
        for (BitmapLayout layout : BitmapLayout.values()) {
            DeletionVectorIndexFile files = indexFiles(layout);
            IndexFileMeta meta = files.write(vectors());
            int i = 0;
            for (Map.Entry<String, BitmapDeletionVector> e : vectors().entrySet()) {
                assertThat(reader.read(deletionFile(files, meta, i++), e.getKey())).as(layout + " " + e.getKey())
                        .isEqualTo(e.getValue());
            }
            // without a recorded cardinality too
            DeletionFile last = deletionFile(files, meta, 2);
            assertThat(reader.read(new DeletionFile(last.path(), last.offset(), last.length(), null), "data-c.parquet"))
                    .isEqualTo(vectors().get("data-c.parquet"));
        }
    }

    @Test
    void rangesThatContradictTheFileAreRefusedNamingIt() throws Exception {
        DeletionVectorIndexFile files = indexFiles(BitmapLayout.BITMAP32);
        IndexFileMeta meta = files.write(vectors());
        DeletionFile b = deletionFile(files, meta, 1);
        String named = "Cannot read the deletion vector of data file data-b.parquet from index file " + b.path()
                + " of table db.t: ";
        assertThatThrownBy(() -> reader.read(new DeletionFile(b.path(), b.offset(), b.length() + 1, 1L),
                "data-b.parquet"))
                .isInstanceOf(CorruptDeletionVectorException.class)
                .hasMessageStartingWith(named)
                .hasMessageContaining("its range records length " + (b.length() + 1));
        assertThatThrownBy(() -> reader.read(new DeletionFile(b.path(), b.offset(), b.length(), 2L), "data-b.parquet"))
                .isInstanceOf(CorruptDeletionVectorException.class)
                .hasMessageContaining("its range records 2 deleted rows, but the stored vector has 1");
        assertThatThrownBy(() -> reader.read(new DeletionFile(b.path(), b.offset() + 1, b.length(), 1L),
                "data-b.parquet"))
                .isInstanceOf(CorruptDeletionVectorException.class)
                .hasMessageStartingWith(named);
        assertThatThrownBy(() -> reader.read(new DeletionFile(b.path(), 0, b.length(), 1L), "data-b.parquet"))
                .isInstanceOf(CorruptDeletionVectorException.class)
                .hasMessageContaining("cannot hold a deletion vector");

        // A flipped bit in the blob fails its CRC; a cut file ends inside the range.
        java.nio.file.Path file = java.nio.file.Path.of(b.path());
        byte[] bytes = Files.readAllBytes(file);
        byte[] flipped = bytes.clone();
        flipped[(int) b.offset() + 10] ^= 1;
        Files.write(file, flipped);
        assertThatThrownBy(() -> reader.read(b, "data-b.parquet"))
                .isInstanceOf(CorruptDeletionVectorException.class)
                .hasMessageStartingWith(named)
                .hasMessageContaining("CRC32");
        Files.write(file, Arrays.copyOf(bytes, (int) b.offset() + 6));
        assertThatThrownBy(() -> reader.read(b, "data-b.parquet"))
                .isInstanceOf(CorruptDeletionVectorException.class)
                .hasMessageContaining("truncated");
        byte[] otherVersion = bytes.clone();
        otherVersion[0] = 2;
        Files.write(file, otherVersion);
        assertThatThrownBy(() -> reader.read(b, "data-b.parquet"))
                .isInstanceOf(CorruptDeletionVectorException.class)
                .hasMessageContaining("its version byte is 2");
        Files.delete(file);
        assertThatThrownBy(() -> reader.read(b, "data-b.parquet"))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(CorruptDeletionVectorException.class)
                .hasMessageStartingWith(named);
    }
}
