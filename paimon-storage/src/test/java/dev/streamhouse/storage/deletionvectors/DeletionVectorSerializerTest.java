package dev.streamhouse.storage.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import java.util.HexFormat;
import java.util.Random;
import java.util.TreeSet;

/**
 * The stored frames of deletion vectors: the bytes Paimon 1.3.1 writes (golden values of docs/format.md §9.2
 * and §13.4; the e2e module compares against Paimon's classes directly), round trips in both layouts,
 * and the errors for frames that are not intact.
 */
class DeletionVectorSerializerTest {
    /** Positions {1, 3}, 32-bit, as docs/format.md §13.4 gives them (without the index file's version byte). */
    static final String FRAME_32_OF_1_3 = "000000185e43f2d03a30000001000000000001001000000001000300da2d59d3";
    /** Positions {1, 3}, 64-bit, as Paimon 1.3.1's Bitmap64DeletionVector.serializeTo writes them. */
    static final String FRAME_64_OF_1_3 = "00000024" + "d1d33964" + "0100000000000000" + "00000000"
            + "3a300000010000000000010010000000" + "01000300" + "683497a9";

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    @Test
    void thirtyTwoBitFrameIsFormatsExample() {
        byte[] frame = DeletionVectorSerializer.serialize(BitmapDeletionVector.of(1, 3), BitmapLayout.BITMAP32);
        assertThat(HexFormat.of().formatHex(frame)).isEqualTo(FRAME_32_OF_1_3);
        assertThat(DeletionVectorSerializer.deserialize(frame)).isEqualTo(BitmapDeletionVector.of(3, 1));
        assertThat(BitmapLayout.BITMAP32.recordedLength(frame.length - 8)).isEqualTo(24);
    }

    @Test
    void sixtyFourBitFrameHasLittleEndianMagicAndCountAndRecordsTheWholeFrame() {
        byte[] frame = DeletionVectorSerializer.serialize(BitmapDeletionVector.of(1, 3), BitmapLayout.BITMAP64);
        assertThat(HexFormat.of().formatHex(frame)).isEqualTo(FRAME_64_OF_1_3);
        assertThat(BitmapLayout.BITMAP64.recordedLength(frame.length - 8)).isEqualTo(44).isEqualTo(frame.length);
        assertThat(DeletionVectorSerializer.deserialize(frame)).isEqualTo(BitmapDeletionVector.of(1, 3));
    }

    @Test
    void bothLayoutsRoundTripRandomPositionsAndRunsAreOptimized() {
        Random random = new Random(7);
        for (int round = 0; round < 50; round++) {
            BitmapDeletionVector.Builder b = BitmapDeletionVector.builder();
            TreeSet<Long> model = new TreeSet<>();
            int n = random.nextInt(3000);
            for (int i = 0; i < n; i++) {
                long p = random.nextInt(4) == 0 ? 500 + i : random.nextInt(100_000);
                assertThat(b.delete(p)).isEqualTo(model.add(p));
            }
            BitmapDeletionVector v = b.build();
            assertThat(v.cardinality()).isEqualTo(model.size());
            for (BitmapLayout layout : BitmapLayout.values()) {
                BitmapDeletionVector back = DeletionVectorSerializer.deserialize(DeletionVectorSerializer.serialize(v,
                        layout));
                assertThat(back).as(layout + " round " + round).isEqualTo(v);
                for (long p = 0; p < 100_000 + n; p += 1 + random.nextInt(50)) {
                    assertThat(back.isDeleted(p)).isEqualTo(model.contains(p));
                }
            }
        }
        // 100 consecutive positions are one run: 19 bytes in both Paimon and here (a plain array would need 208)
        BitmapDeletionVector.Builder run = BitmapDeletionVector.builder();
        for (int p = 100; p < 200; p++) {
            run.delete(p);
        }
        assertThat(HexFormat.of().formatHex(DeletionVectorSerializer.serialize(run.build(), BitmapLayout.BITMAP32)))
                .isEqualTo("00000013" + "5e43f2d03b3000000100006300010064006300" + "c933a583");
    }

    @Test
    void positionsBeyond32BitsNeedTheSixtyFourBitLayout() {
        long far = (5L << 32) | 7;
        BitmapDeletionVector v = BitmapDeletionVector.of(1, far, (1L << 31));
        assertThat(v.isDeleted(far)).isTrue();
        assertThat(v.isDeleted(7)).isFalse();
        assertThat(v.fitsInt32()).isFalse();
        assertThat(DeletionVectorSerializer.deserialize(DeletionVectorSerializer.serialize(v, BitmapLayout.BITMAP64)))
                .isEqualTo(v);
        assertThatThrownBy(() -> DeletionVectorSerializer.serialize(v, BitmapLayout.BITMAP32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'deletion-vectors.bitmap64' = 'true'");
        assertThat(BitmapDeletionVector.of(Integer.MAX_VALUE).fitsInt32()).isTrue();
        assertThatThrownBy(() -> BitmapDeletionVector.builder().delete(-1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void emptyVectorsAreStoredAsEmptyBitmaps() {
        assertThat(HexFormat.of().formatHex(DeletionVectorSerializer.serialize(BitmapDeletionVector.empty(),
                BitmapLayout.BITMAP32))).isEqualTo("0000000c5e43f2d03a300000000000005de5c7e9");
        assertThat(HexFormat.of().formatHex(DeletionVectorSerializer.serialize(BitmapDeletionVector.empty(),
                BitmapLayout.BITMAP64))).isEqualTo("0000000cd1d339640000000000000000bf18480c");
        assertThat(DeletionVectorSerializer.deserialize(hex("0000000cd1d339640000000000000000bf18480c")).isEmpty())
                .isTrue();
    }

    @Test
    void damagedFramesAreRefusedSayingWhy() {
        byte[] frame = hex(FRAME_32_OF_1_3);
        byte[] flipped = frame.clone();
        flipped[20] ^= 1;
        assertThatThrownBy(() -> DeletionVectorSerializer.deserialize(flipped))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CRC32");
        byte[] truncated = java.util.Arrays.copyOf(frame, frame.length - 1);
        assertThatThrownBy(() -> DeletionVectorSerializer.deserialize(truncated))
                .hasMessageContaining("its size field says 24 bytes");
        byte[] longer = java.util.Arrays.copyOf(frame, frame.length + 2);
        assertThatThrownBy(() -> DeletionVectorSerializer.deserialize(longer))
                .hasMessageContaining("followed by 2 more bytes");
        byte[] otherMagic = DeletionVectorSerializer.serialize(BitmapDeletionVector.of(1), BitmapLayout.BITMAP32);
        otherMagic[4] = 0x11;
        fixCrc(otherMagic);
        assertThatThrownBy(() -> DeletionVectorSerializer.deserialize(otherMagic))
                .hasMessageContaining("magic number").hasMessageContaining("1581511376");
        // A blob that is longer than its bitmap
        byte[] padded = hex("00000018" + "5e43f2d0" + "3a300000" + "01000000" + "00000000" + "10000000" + "0100" + "0000"
                + "00000000");
        fixCrc(padded);
        assertThatThrownBy(() -> DeletionVectorSerializer.deserialize(padded))
                .hasMessageContaining("ends 2 bytes before the blob does");
    }

    private static void fixCrc(byte[] frame) {
        int size = java.nio.ByteBuffer.wrap(frame).getInt(0);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(frame, 4, size);
        java.nio.ByteBuffer.wrap(frame).putInt(4 + size, (int) crc.getValue());
    }

    @Test
    void buildersMergeAndBuildSnapshots() {
        BitmapDeletionVector.Builder b = BitmapDeletionVector.of(2, 4).toBuilder();
        assertThat(b.delete(4)).isFalse();
        assertThat(b.delete(5)).isTrue();
        BitmapDeletionVector first = b.build();
        b.merge(BitmapDeletionVector.of(9, 1L << 33));
        assertThat(first).isEqualTo(BitmapDeletionVector.of(2, 4, 5));
        assertThat(first.toString()).isEqualTo("BitmapDeletionVector{2,4,5}");
        BitmapDeletionVector second = b.build();
        assertThat(second.cardinality()).isEqualTo(5);
        assertThat(b.isDeleted(1L << 33)).isTrue();
        assertThat(second.isDeleted(9)).isTrue();
        assertThat(second.isDeleted(-3)).isFalse();
        assertThat(BitmapDeletionVector.builder().build()).isSameAs(BitmapDeletionVector.empty());
    }
}
