package dev.streamhouse.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.deletionvectors.BitmapDeletionVector;
import dev.streamhouse.storage.deletionvectors.BitmapLayout;
import dev.streamhouse.storage.deletionvectors.DeletionVectorIndexFile;
import dev.streamhouse.storage.deletionvectors.DeletionVectorSerializer;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;

import org.apache.paimon.deletionvectors.Bitmap64DeletionVector;
import org.apache.paimon.deletionvectors.DeletionVector;
import org.apache.paimon.deletionvectors.DeletionVectorsIndexFile;
import org.apache.paimon.fs.Path;
import org.apache.paimon.index.IndexPathFactory;
import org.apache.paimon.options.MemorySize;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Our deletion-vector codecs against Apache Paimon 1.3.1's own classes ({@code
 * org.apache.paimon.deletionvectors}): the stored frames of both bitmap layouts are the same bytes for
 * the same positions, each side reads the other's, and DV index files (single and rolling) are byte for
 * byte the same with the same ranges, docs/format.md §9.2's 33-byte example included.
 */
class DeletionVectorFormatInteropTest {
    @TempDir
    java.nio.file.Path dir;

    private static byte[] paimonFrame(DeletionVector vector) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            int recorded = vector.serializeTo(out);
            out.flush();
            assertThat(recorded).as("length Paimon records").isEqualTo(
                    vector instanceof Bitmap64DeletionVector ? bytes.size() : bytes.size() - 8);
        }
        return bytes.toByteArray();
    }

    /** Random position sets: sparse, dense runs, empty; beyond 2^32 only for the 64-bit layout. */
    private static List<TreeSet<Long>> positionSets(boolean beyond32Bits) {
        Random random = new Random(beyond32Bits ? 64 : 32);
        List<TreeSet<Long>> sets = new ArrayList<>();
        sets.add(new TreeSet<>());
        sets.add(new TreeSet<>(List.of(1L, 3L)));
        sets.add(new TreeSet<>(List.of((long) Integer.MAX_VALUE)));
        for (int round = 0; round < 40; round++) {
            TreeSet<Long> s = new TreeSet<>();
            int n = random.nextInt(5000);
            long runStart = random.nextInt(200_000);
            for (int i = 0; i < n; i++) {
                s.add(random.nextBoolean() ? runStart + i : (long) random.nextInt(1 << (1 + random.nextInt(30))));
            }
            if (beyond32Bits && random.nextBoolean()) {
                s.add(((long) (1 + random.nextInt(4)) << 32) | random.nextInt(1000));
            }
            sets.add(s);
        }
        return sets;
    }

    private static BitmapDeletionVector ours(TreeSet<Long> positions) {
        BitmapDeletionVector.Builder b = BitmapDeletionVector.builder();
        positions.forEach(b::delete);
        return b.build();
    }

    private static DeletionVector paimon(TreeSet<Long> positions, boolean bitmap64) {
        DeletionVector v = bitmap64 ? new Bitmap64DeletionVector()
                : new org.apache.paimon.deletionvectors.BitmapDeletionVector();
        positions.forEach(v::delete);
        return v;
    }

    @Test
    void framesOfBothLayoutsAreTheBytesPaimonWritesAndReads() throws Exception {
        for (BitmapLayout layout : BitmapLayout.values()) {
            boolean bitmap64 = layout == BitmapLayout.BITMAP64;
            for (TreeSet<Long> positions : positionSets(bitmap64)) {
                String what = layout + " with " + positions.size() + " positions";
                byte[] theirs = paimonFrame(paimon(positions, bitmap64));
                byte[] mine = DeletionVectorSerializer.serialize(ours(positions), layout);
                assertThat(HexFormat.of().formatHex(mine)).as(what).isEqualTo(HexFormat.of().formatHex(theirs));

                BitmapDeletionVector read = DeletionVectorSerializer.deserialize(theirs);
                assertThat(read.cardinality()).as(what).isEqualTo(positions.size());
                DeletionVector readByPaimon = DeletionVector.deserializeFromBytes(mine);
                assertThat(readByPaimon.getCardinality()).as(what).isEqualTo(positions.size());
                for (long p : positions) {
                    assertThat(read.isDeleted(p)).isTrue();
                    assertThat(readByPaimon.isDeleted(p)).isTrue();
                    assertThat(read.isDeleted(p + 1)).isEqualTo(positions.contains(p + 1));
                }
            }
        }
    }

    /** Index files of Paimon's {@link DeletionVectorsIndexFile}, written into {@code dir/paimon}. */
    private DeletionVectorsIndexFile paimonIndexFile(boolean bitmap64, MemorySize targetSize) {
        java.nio.file.Path out = dir.resolve("paimon");
        AtomicInteger counter = new AtomicInteger();
        IndexPathFactory paths = new IndexPathFactory() {
            @Override
            public Path newPath() {
                return new Path(out.resolve("index-" + counter.getAndIncrement()).toString());
            }

            @Override
            public Path toPath(org.apache.paimon.index.IndexFileMeta file) {
                return new Path(out.resolve(file.fileName()).toString());
            }

            @Override
            public boolean isExternalPath() {
                return false;
            }
        };
        return new DeletionVectorsIndexFile(org.apache.paimon.fs.local.LocalFileIO.create(), paths, targetSize, bitmap64);
    }

    private DeletionVectorIndexFile ourIndexFile(BitmapLayout layout, long targetSize) {
        return new DeletionVectorIndexFile(LocalFileIO.INSTANCE,
                new dev.streamhouse.storage.fs.Path(dir.resolve("ours").toString()), "db.t", layout, targetSize);
    }

    private byte[] bytes(DeletionVectorIndexFile files, IndexFileMeta meta) throws Exception {
        return Files.readAllBytes(java.nio.file.Path.of(files.path(meta).toString()));
    }

    private byte[] bytes(org.apache.paimon.index.IndexFileMeta meta) throws Exception {
        return Files.readAllBytes(dir.resolve("paimon").resolve(meta.fileName()));
    }

    private static List<DeletionVectorMeta> ranges(org.apache.paimon.index.IndexFileMeta meta) {
        List<DeletionVectorMeta> out = new ArrayList<>();
        meta.dvRanges().values().forEach(r -> out.add(new DeletionVectorMeta(r.dataFileName(), r.offset(), r.length(),
                r.cardinality())));
        return out;
    }

    private static org.apache.paimon.index.IndexFileMeta asPaimons(IndexFileMeta meta) {
        LinkedHashMap<String, org.apache.paimon.index.DeletionVectorMeta> ranges = new LinkedHashMap<>();
        for (DeletionVectorMeta r : meta.deletionVectorRanges()) {
            ranges.put(r.dataFileName(), new org.apache.paimon.index.DeletionVectorMeta(r.dataFileName(), r.offset(),
                    r.length(), r.cardinality()));
        }
        return new org.apache.paimon.index.IndexFileMeta(meta.indexType(), meta.fileName(), meta.fileSize(),
                meta.rowCount(), ranges, null);
    }

    @Test
    void formatsExampleIsTheFileBothWrite() throws Exception {
        org.apache.paimon.index.IndexFileMeta theirs = paimonIndexFile(false, MemorySize.ofMebiBytes(2))
                .writeSingleFile(Map.of("data-a.parquet", paimon(new TreeSet<>(List.of(1L, 3L)), false)));
        DeletionVectorIndexFile files = ourIndexFile(BitmapLayout.BITMAP32, 2 << 20);
        IndexFileMeta mine = files.write(Map.of("data-a.parquet", ours(new TreeSet<>(List.of(1L, 3L)))));
        String format = "01" + "00000018" + "5e43f2d0" + "3a300000" + "01000000" + "00000100" + "10000000" + "01000300"
                + "da2d59d3";
        assertThat(HexFormat.of().formatHex(bytes(theirs))).isEqualTo(format);
        assertThat(HexFormat.of().formatHex(bytes(files, mine))).isEqualTo(format);
        assertThat(ranges(theirs)).containsExactlyElementsOf(mine.deletionVectorRanges())
                .containsExactly(new DeletionVectorMeta("data-a.parquet", 1, 24, 2L));
        assertThat(theirs.fileSize()).isEqualTo(mine.fileSize()).isEqualTo(33);
        assertThat(theirs.rowCount()).isEqualTo(mine.rowCount()).isEqualTo(1);
    }

    @Test
    void indexFilesSingleAndRollingAreTheSameBytesAndRangesAndReadEachOther() throws Exception {
        for (BitmapLayout layout : BitmapLayout.values()) {
            boolean bitmap64 = layout == BitmapLayout.BITMAP64;
            Map<String, DeletionVector> theirVectors = new LinkedHashMap<>();
            Map<String, BitmapDeletionVector> ourVectors = new LinkedHashMap<>();
            List<TreeSet<Long>> sets = positionSets(bitmap64);
            for (int i = 0; i < sets.size(); i++) {
                theirVectors.put("data-" + i + ".parquet", paimon(sets.get(i), bitmap64));
                ourVectors.put("data-" + i + ".parquet", ours(sets.get(i)));
            }
            long target = 16 << 10;
            DeletionVectorsIndexFile paimonFiles = paimonIndexFile(bitmap64, MemorySize.ofBytes(target));
            DeletionVectorIndexFile files = ourIndexFile(layout, target);

            org.apache.paimon.index.IndexFileMeta theirSingle = paimonFiles.writeSingleFile(theirVectors);
            IndexFileMeta mySingle = files.write(ourVectors);
            assertThat(bytes(files, mySingle)).as(layout + " single file").isEqualTo(bytes(theirSingle));
            assertThat(mySingle.deletionVectorRanges()).isEqualTo(ranges(theirSingle));
            assertThat(mySingle.rowCount()).isEqualTo(theirSingle.rowCount());

            List<org.apache.paimon.index.IndexFileMeta> theirRolled = paimonFiles.writeWithRolling(theirVectors);
            List<IndexFileMeta> myRolled = files.writeRolling(ourVectors);
            assertThat(myRolled).as(layout + " rolled files").hasSameSizeAs(theirRolled).hasSizeGreaterThan(1);
            for (int i = 0; i < myRolled.size(); i++) {
                assertThat(bytes(files, myRolled.get(i))).isEqualTo(bytes(theirRolled.get(i)));
                assertThat(myRolled.get(i).deletionVectorRanges()).isEqualTo(ranges(theirRolled.get(i)));
            }

            // each reads the other's file
            Map<String, BitmapDeletionVector> readOurs = new LinkedHashMap<>();
            IndexFileMeta theirsAsOurs = new IndexFileMeta(theirSingle.indexType(), theirSingle.fileName(),
                    theirSingle.fileSize(), theirSingle.rowCount(), ranges(theirSingle),
                    dir.resolve("paimon").resolve(theirSingle.fileName()).toString());
            readOurs.putAll(files.read(theirsAsOurs));
            assertThat(readOurs).containsExactlyEntriesOf(ourVectors);
            Map<String, DeletionVector> readTheirs = paimonIndexFile(bitmap64, MemorySize.ofBytes(target))
                    .readAllDeletionVectors(asPaimonsAt(files, mySingle));
            assertThat(readTheirs.keySet()).containsExactlyInAnyOrderElementsOf(ourVectors.keySet());
            for (Map.Entry<String, DeletionVector> e : readTheirs.entrySet()) {
                assertThat(e.getValue().getCardinality()).isEqualTo(ourVectors.get(e.getKey()).cardinality());
            }
        }
    }

    /** Our file's meta for Paimon, with Paimon's index path factory pointed at our index directory. */
    private org.apache.paimon.index.IndexFileMeta asPaimonsAt(DeletionVectorIndexFile files, IndexFileMeta meta)
            throws Exception {
        Files.copy(java.nio.file.Path.of(files.path(meta).toString()), dir.resolve("paimon").resolve(meta.fileName()));
        return asPaimons(meta);
    }
}
