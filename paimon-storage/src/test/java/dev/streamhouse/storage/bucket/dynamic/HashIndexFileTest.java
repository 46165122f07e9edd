package dev.streamhouse.storage.bucket.dynamic;

import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.FileOperation;
import dev.streamhouse.storage.testutils.Hex;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HashIndexFileTest {
    @TempDir
    java.nio.file.Path tmp;

    private Path tableRoot;
    private HashIndexFile file;

    @BeforeEach
    void setUp() {
        tableRoot = new Path(tmp.toString() + "/db.db/t");
        file = new HashIndexFile(LocalFileIO.INSTANCE, tableRoot);
    }

    static int intKeyHash(int key) {
        return new BinaryRowConverter(List.of(DataTypes.INT())).toBinaryRow(new Object[] {key}).formatHash();
    }

    private byte[] bytesOf(IndexFileMeta meta) throws IOException {
        return Files.readAllBytes(java.nio.file.Path.of(file.path(meta).path()));
    }

    @Test
    void formatTestVectorOfKeysZeroOneTwo() throws Exception {
        // docs/format.md §13.4: Paimon wrote keys INT 0,1,2 as 5759f99e ee18d2a5 4fe4bbf0 (hashes of 1, 0, 2).
        assertThat(new int[] {intKeyHash(1), intKeyHash(0), intKeyHash(2)})
                .containsExactly(0x5759f99e, 0xee18d2a5, 0x4fe4bbf0);
        Path paimonFile = new Path(tableRoot, "index/index-paimon-0");
        LocalFileIO.INSTANCE.newOutputStream(paimonFile, false).close();
        LocalFileIO.INSTANCE.overwrite(paimonFile, Hex.parse("5759f99e ee18d2a5 4fe4bbf0"));
        int[] read = file.read(new IndexFileMeta(IndexFileMeta.HASH_INDEX, "index-paimon-0", 12, 3, null, null));
        assertThat(read).containsExactly(intKeyHash(1), intKeyHash(0), intKeyHash(2));

        IndexFileMeta ours = file.write(new int[] {intKeyHash(0), intKeyHash(1), intKeyHash(2)});
        assertThat(ours.indexType()).isEqualTo(IndexFileMeta.HASH_INDEX);
        assertThat(ours.fileSize()).isEqualTo(12);
        assertThat(ours.rowCount()).isEqualTo(3);
        assertThat(ours.deletionVectorRanges()).isNull();
        assertThat(ours.externalPath()).isNull();
        // Same set, written in ascending signed order.
        assertThat(Hex.grouped(bytesOf(ours))).isEqualTo(Hex.regroup("ee18d2a5 4fe4bbf0 5759f99e"));
    }

    @Test
    void namesUseOneUuidAndACounterInTheIndexDirectory() throws Exception {
        IndexFileMeta a = file.write(new int[] {1});
        IndexFileMeta b = file.write(new int[] {2});
        assertThat(a.fileName()).matches("index-[0-9a-f-]{36}-0");
        assertThat(b.fileName()).isEqualTo(a.fileName().substring(0, a.fileName().length() - 1) + "1");
        assertThat(file.path(a)).isEqualTo(new Path(tableRoot, "index/" + a.fileName()));
        assertThat(new HashIndexFile(LocalFileIO.INSTANCE, tableRoot).write(new int[0]).fileName())
                .isNotEqualTo(a.fileName()).endsWith("-0");
    }

    @Test
    void roundTripsSortedDistinctHashes() throws Exception {
        int[] hashes = {7, Integer.MIN_VALUE, -1, 0, Integer.MAX_VALUE, 7, 42, -1};
        IndexFileMeta meta = file.write(hashes);
        assertThat(meta.rowCount()).isEqualTo(6);
        assertThat(meta.fileSize()).isEqualTo(24);
        assertThat(file.read(meta)).containsExactly(Integer.MIN_VALUE, -1, 0, 7, 42, Integer.MAX_VALUE);
        assertThat(hashes).containsExactly(7, Integer.MIN_VALUE, -1, 0, Integer.MAX_VALUE, 7, 42, -1); // untouched

        IndexFileMeta empty = file.write(new int[0]);
        assertThat(empty.fileSize()).isZero();
        assertThat(file.read(empty)).isEmpty();
    }

    @Test
    void readRejectsContentThatContradictsItsMeta() throws Exception {
        IndexFileMeta meta = file.write(new int[] {1, 2, 3});
        IndexFileMeta wrongSize = new IndexFileMeta(IndexFileMeta.HASH_INDEX, meta.fileName(), 16, 4, null, null);
        assertThatThrownBy(() -> file.read(wrongSize))
                .isInstanceOf(CorruptHashIndexException.class)
                .hasMessageContaining(meta.fileName()).hasMessageContaining(tableRoot.toString())
                .hasMessageContaining("12 bytes");
        IndexFileMeta wrongCount = new IndexFileMeta(IndexFileMeta.HASH_INDEX, meta.fileName(), 12, 2, null, null);
        assertThatThrownBy(() -> file.read(wrongCount)).isInstanceOf(CorruptHashIndexException.class);

        LocalFileIO.INSTANCE.overwrite(file.path(meta), new byte[] {0, 0, 0, 1, 0});
        IndexFileMeta odd = new IndexFileMeta(IndexFileMeta.HASH_INDEX, meta.fileName(), 5, 1, null, null);
        assertThatThrownBy(() -> file.read(odd)).isInstanceOf(CorruptHashIndexException.class)
                .hasMessageContaining("5 bytes");

        IndexFileMeta dv = new IndexFileMeta(IndexFileMeta.DELETION_VECTORS_INDEX, meta.fileName(), 5, 1, List.of(), null);
        assertThatThrownBy(() -> file.read(dv)).isInstanceOf(CorruptHashIndexException.class)
                .hasMessageContaining("DELETION_VECTORS");
    }

    @Test
    void missingFileIsAnIoErrorNamingFileAndTable() {
        IndexFileMeta meta = new IndexFileMeta(IndexFileMeta.HASH_INDEX, "index-gone-0", 4, 1, null, null);
        assertThatThrownBy(() -> file.read(meta)).isInstanceOf(IOException.class)
                .isNotInstanceOf(CorruptHashIndexException.class)
                .hasMessageContaining("index-gone-0").hasMessageContaining(tableRoot.toString());
    }

    @Test
    void failedWriteLeavesNoFile() throws Exception {
        FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);
        try {
            HashIndexFile failing = new HashIndexFile(io, tableRoot);
            io.armMatching(p -> true, FileOperation.CLOSE_OUTPUT);
            assertThatThrownBy(() -> failing.write(new int[] {1, 2})).isInstanceOf(IOException.class)
                    .hasMessageContaining(tableRoot.toString()).hasMessageContaining("index-");
            io.disarm();
            assertThat(LocalFileIO.INSTANCE.list(new Path(tableRoot, "index"))).isEmpty();
        } finally {
            io.release();
        }
    }
}
