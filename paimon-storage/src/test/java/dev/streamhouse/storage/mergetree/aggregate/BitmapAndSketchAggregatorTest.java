package dev.streamhouse.storage.mergetree.aggregate;

import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.types.DataTypes;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;
import org.apache.datasketches.memory.Memory;
import org.apache.datasketches.theta.CompactSketch;
import org.apache.datasketches.theta.Sketch;
import org.apache.datasketches.theta.UpdateSketch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64Bitmap;

class BitmapAndSketchAggregatorTest {

    @Test
    void rbm32UnitesPortableBitmapsRunOptimized() throws IOException {
        byte[] merged = (byte[]) of("rbm32", DataTypes.BYTES()).agg(rbm32(1, 2, 3), rbm32(3, 100_000));
        RoaringBitmap back = new RoaringBitmap();
        back.deserialize(ByteBuffer.wrap(merged));
        assertThat(back.toArray()).containsExactly(1, 2, 3, 100_000);
        RoaringBitmap expected = RoaringBitmap.bitmapOf(1, 2, 3, 100_000);
        expected.runOptimize();
        assertThat(merged).isEqualTo(serialize(expected));
    }

    @Test
    void rbm64UnitesRoaring64Bitmaps() throws IOException {
        byte[] merged = (byte[]) of("rbm64", DataTypes.BYTES()).agg(rbm64(1L, 1L << 40), rbm64(-1L, 1L));
        Roaring64Bitmap back = new Roaring64Bitmap();
        back.deserialize(new DataInputStream(new ByteArrayInputStream(merged)));
        assertThat(back.toArray()).containsExactly(1L, 1L << 40, -1L);
        assertThat(merged).isEqualTo(rbm64(1L, 1L << 40, -1L));
    }

    @Test
    void bitmapsThatDoNotDeserializeAreRefusedNamingTheColumn() {
        assertThatThrownBy(() -> of("rbm64", DataTypes.BYTES()).agg(new byte[] {1}, rbm64(1L)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column 'c'");
    }

    @Test
    void hllUnionHasTheSmallerLgKAndIsACompactHll4() {
        HllSketch big = new HllSketch(12, TgtHllType.HLL_8);
        HllSketch small = new HllSketch(10, TgtHllType.HLL_6);
        for (int i = 0; i < 5000; i++) {
            big.update(i);
            small.update(i + 2500);
        }
        FieldAggregator hll = of("hll_sketch", DataTypes.BYTES());
        byte[] bytes = (byte[]) hll.agg(big.toCompactByteArray(), small.toUpdatableByteArray());
        HllSketch union = HllSketch.heapify(bytes);
        assertThat(union.getLgConfigK()).isEqualTo(10);
        assertThat(union.getTgtHllType()).isEqualTo(TgtHllType.HLL_4);
        assertThat(bytes).isEqualTo(union.toCompactByteArray()).isNotEqualTo(union.toUpdatableByteArray());
        assertThat(union.getEstimate()).isBetween(6500.0, 8500.0);
    }

    @Test
    void thetaUnionIsAnOrderedCompactSketchOfAtMost4096Entries() {
        UpdateSketch big = UpdateSketch.builder().setNominalEntries(16384).build();
        UpdateSketch other = UpdateSketch.builder().build();
        for (int i = 0; i < 20_000; i++) {
            big.update(i);
            other.update(-i - 1);
        }
        FieldAggregator theta = of("theta_sketch", DataTypes.BYTES());
        Sketch union = CompactSketch.wrap(Memory.wrap((byte[]) theta.agg(big.compact().toByteArray(),
                other.toByteArray())));
        assertThat(union.isOrdered()).isTrue();
        assertThat(union.getRetainedEntries()).isLessThanOrEqualTo(8192);
        assertThat(union.getEstimate()).isBetween(36_000.0, 44_000.0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rbm32", "rbm64", "hll_sketch", "theta_sketch"})
    void nullNeverContributes(String function) {
        FieldAggregator agg = of(function, DataTypes.BYTES());
        byte[] value = {42};
        assertThat(agg.agg(null, value)).isSameAs(value);
        assertThat(agg.agg(value, null)).isSameAs(value);
        assertThat(agg.agg(null, null)).isNull();
    }

    private static byte[] rbm32(int... values) {
        return serialize(RoaringBitmap.bitmapOf(values));
    }

    private static byte[] serialize(RoaringBitmap bitmap) {
        ByteBuffer out = ByteBuffer.allocate(bitmap.serializedSizeInBytes());
        bitmap.serialize(out);
        return out.array();
    }

    private static byte[] rbm64(long... values) throws IOException {
        Roaring64Bitmap bitmap = Roaring64Bitmap.bitmapOf(values);
        bitmap.runOptimize();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        bitmap.serialize(new DataOutputStream(out));
        return out.toByteArray();
    }
}
