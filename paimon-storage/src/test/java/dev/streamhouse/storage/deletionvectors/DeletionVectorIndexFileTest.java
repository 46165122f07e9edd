package dev.streamhouse.storage.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.options.Options;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DV index files: docs/format.md §9.2's example file, the metas written (offsets, recorded lengths of both
 * layouts, cardinalities), rolling at the target size, and the checks on read that name the index file
 * and the data file.
 */
class DeletionVectorIndexFileTest {
    @TempDir
    java.nio.file.Path dir;

    private DeletionVectorIndexFile indexFile(BitmapLayout layout, long targetSize) {
        return new DeletionVectorIndexFile(LocalFileIO.INSTANCE, new Path(dir.toString()), "db.t", layout, targetSize);
    }

    private byte[] bytesOf(DeletionVectorIndexFile files, IndexFileMeta meta) throws Exception {
        return Files.readAllBytes(java.nio.file.Path.of(files.path(meta).toString()));
    }

    @Test
    void positionsOneAndThreeOfOneFileGiveFormatsThirtyThreeByteFile() throws Exception {
        DeletionVectorIndexFile files = indexFile(BitmapLayout.BITMAP32, 1 << 20);
        IndexFileMeta meta = files.write(Map.of("data-a.parquet", BitmapDeletionVector.of(1, 3)));
        assertThat(HexFormat.of().formatHex(bytesOf(files, meta)))
                .isEqualTo("01" + DeletionVectorSerializerTest.FRAME_32_OF_1_3);
        assertThat(meta.fileName()).startsWith("index-").endsWith("-0");
        assertThat(meta).isEqualTo(new IndexFileMeta("DELETION_VECTORS", meta.fileName(), 33, 1,
                List.of(new DeletionVectorMeta("data-a.parquet", 1, 24, 2L)), null));
        assertThat(files.path(meta).toString()).isEqualTo(dir + "/index/" + meta.fileName());
        assertThat(files.read(meta)).containsExactly(Map.entry("data-a.parquet", BitmapDeletionVector.of(1, 3)));
    }

    @Test
    void rangesFollowEachOtherAndSixtyFourBitRangesRecordTheWholeFrame() throws Exception {
        Map<String, BitmapDeletionVector> vectors = new LinkedHashMap<>();
        vectors.put("data-a.parquet", BitmapDeletionVector.of(1, 3));
        vectors.put("data-b.parquet", BitmapDeletionVector.of(0));
        vectors.put("data-c.parquet", BitmapDeletionVector.of(7, 1L << 32));
        DeletionVectorIndexFile files = indexFile(BitmapLayout.BITMAP64, 1 << 20);
        IndexFileMeta meta = files.write(vectors);
        // frames: {1,3} 44 bytes; {0} 42; {7, 2^32} 8 + 4 + 8 + 2 * (4 + 18) = 64, the key-0 and key-1 bitmaps
        assertThat(meta.deletionVectorRanges()).containsExactly(
                new DeletionVectorMeta("data-a.parquet", 1, 44, 2L),
                new DeletionVectorMeta("data-b.parquet", 45, 42, 1L),
                new DeletionVectorMeta("data-c.parquet", 87, 64, 2L));
        assertThat(meta.fileSize()).isEqualTo(151).isEqualTo(bytesOf(files, meta).length);
        assertThat(meta.rowCount()).isEqualTo(3);
        // Reading does not depend on the layout the reader would write.
        assertThat(indexFile(BitmapLayout.BITMAP32, 1).read(meta)).containsExactlyEntriesOf(vectors);
    }

    @Test
    void rollingClosesAFileAfterTheVectorThatPassesTheTargetSize() throws Exception {
        Map<String, BitmapDeletionVector> vectors = new LinkedHashMap<>();
        for (int i = 0; i < 7; i++) {
            vectors.put("data-" + i + ".parquet", BitmapDeletionVector.of(i, 100 + i));
        }
        // each frame is 8 + 24 = 32 bytes, so a file passes 60 bytes with its second vector
        DeletionVectorIndexFile files = indexFile(BitmapLayout.BITMAP32, 60);
        List<IndexFileMeta> metas = files.writeRolling(vectors);
        assertThat(metas).extracting(IndexFileMeta::rowCount).containsExactly(2L, 2L, 2L, 1L);
        assertThat(metas).extracting(IndexFileMeta::fileSize).containsExactly(65L, 65L, 65L, 33L);
        Map<String, BitmapDeletionVector> back = new LinkedHashMap<>();
        for (IndexFileMeta m : metas) {
            back.putAll(files.read(m));
        }
        assertThat(back).containsExactlyEntriesOf(vectors);
        assertThat(files.writeRolling(Map.of())).isEmpty();
        // write() never rolls; with no vectors it writes the version byte alone, as Paimon does
        assertThat(files.write(vectors).rowCount()).isEqualTo(7);
        IndexFileMeta empty = files.write(Map.of());
        assertThat(bytesOf(files, empty)).containsExactly(1);
        assertThat(files.read(empty)).isEmpty();
    }

    @Test
    void readingChecksTheFileAndEveryVectorNamingTheDataFile() throws Exception {
        DeletionVectorIndexFile files = indexFile(BitmapLayout.BITMAP32, 1 << 20);
        IndexFileMeta meta = files.write(Map.of("data-a.parquet", BitmapDeletionVector.of(1, 3)));
        java.nio.file.Path file = java.nio.file.Path.of(files.path(meta).toString());
        String where = "Cannot read the deletion vector of data file data-a.parquet from index file "
                + files.path(meta) + " of table db.t: ";

        assertThatThrownBy(() -> files.read(withRange(meta, new DeletionVectorMeta("data-a.parquet", 1, 25, 2L))))
                .isInstanceOf(CorruptDeletionVectorException.class)
                .hasMessage(where + "its range records length 25, but the BITMAP32 vector stored at offset 1 has "
                        + "length 24; the index file is corrupt");
        assertThatThrownBy(() -> files.read(withRange(meta, new DeletionVectorMeta("data-a.parquet", 1, 24, 3L))))
                .hasMessage(where + "its range records 3 deleted rows, but the stored vector has 2; the index file "
                        + "is corrupt");
        assertThatThrownBy(() -> files.read(withRange(meta, new DeletionVectorMeta("data-a.parquet", 2, 24, 2L))))
                .isInstanceOf(CorruptDeletionVectorException.class)
                .hasMessageStartingWith(where + "the vector at offset 2 is unusable: ");

        byte[] bytes = Files.readAllBytes(file);
        bytes[20] ^= 0x40;
        Files.write(file, bytes);
        assertThatThrownBy(() -> files.read(meta))
                .isInstanceOf(CorruptDeletionVectorException.class)
                .hasMessageStartingWith(where + "the vector at offset 1 is unusable: its CRC32 is ")
                .hasMessageEndingWith("; the index file is corrupt")
                .satisfies(e -> assertThat(((CorruptDeletionVectorException) e).file()).isEqualTo(files.path(meta)));

        bytes[20] ^= 0x40;
        bytes[0] = 2;
        Files.write(file, bytes);
        assertThatThrownBy(() -> files.read(meta))
                .hasMessage("Cannot read deletion-vector index file " + files.path(meta) + " of table db.t: its "
                        + "version byte is 2; this reader knows version 1; the index file is corrupt");
        Files.write(file, java.util.Arrays.copyOf(bytes, 30));
        assertThatThrownBy(() -> files.read(meta))
                .hasMessageContaining("it has 30 bytes, but its index manifest entry records 33");
        Files.delete(file);
        assertThatThrownBy(() -> files.read(meta)).isInstanceOf(java.io.IOException.class)
                .hasMessageStartingWith("Cannot read deletion-vector index file " + files.path(meta) + " of table db.t");
    }

    private static IndexFileMeta withRange(IndexFileMeta meta, DeletionVectorMeta range) {
        return new IndexFileMeta(meta.indexType(), meta.fileName(), meta.fileSize(), 1, List.of(range), null);
    }

    @Test
    void theTableOptionsPickTheLayoutAndTheTargetSize() throws Exception {
        DeletionVectorIndexFile files = DeletionVectorIndexFile.of(LocalFileIO.INSTANCE, new Path(dir.toString()),
                "db.t", Options.of("deletion-vectors.bitmap64", "true",
                        "deletion-vector.index-file.target-size", "10 b"));
        Map<String, BitmapDeletionVector> vectors = new LinkedHashMap<>();
        vectors.put("a", BitmapDeletionVector.of(1));
        vectors.put("b", BitmapDeletionVector.of(2));
        List<IndexFileMeta> metas = files.writeRolling(vectors);
        assertThat(metas).hasSize(2);
        assertThat(metas.get(0).deletionVectorRanges().get(0).length()).isEqualTo(42);
    }
}
