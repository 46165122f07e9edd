package dev.streamhouse.storage.deletionvectors;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.read.DeletionVector;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;

/**
 * {@link BitmapDeletionVector#deletedIn}, the range walk raw reads use per batch, against one
 * {@link BitmapDeletionVector#isDeleted} per position: sparse and dense vectors, ranges across the
 * bitmap's 65,536-value containers, around 2^31 (where the low word turns negative as a Java int) and
 * across 2^32 (two high words), and past the last deleted position.
 */
class BitmapDeletionVectorTest {

    /** What deletedIn must return: one lookup per position. */
    private static int[] lookedUp(DeletionVector v, long from, int count) {
        int[] out = new int[count];
        int k = 0;
        for (int i = 0; i < count; i++) {
            if (v.isDeleted(from + i)) {
                out[k++] = i;
            }
        }
        return Arrays.copyOf(out, k);
    }

    private static int[] walked(DeletionVector v, long from, int count) {
        int[] out = new int[Math.max(count, 1)];
        Arrays.fill(out, -7);
        int k = v.deletedIn(from, count, out);
        return Arrays.copyOf(out, k);
    }

    private static void assertSameAsLookups(BitmapDeletionVector v, long from, int count) {
        assertThat(walked(v, from, count)).as("deleted in [%d, %d + %d)", from, from, count)
                .containsExactly(lookedUp(v, from, count));
    }

    @Test
    void rangesOfRandomVectorsMatchLookupsPerPosition() {
        Random random = new Random(42);
        for (double density : new double[] {0.001, 0.3, 0.97}) {
            BitmapDeletionVector.Builder b = BitmapDeletionVector.builder();
            for (int p = 0; p < 300_000; p++) {
                if (random.nextDouble() < density) {
                    b.delete(p);
                }
            }
            BitmapDeletionVector v = b.build();
            for (int i = 0; i < 200; i++) {
                long from = random.nextInt(310_000);
                int count = 1 + random.nextInt(3000);
                assertSameAsLookups(v, from, count);
            }
            // batch by batch over the whole file, as a reader asks, and across a container boundary
            for (long from = 0; from < 300_000; from += 1024) {
                assertSameAsLookups(v, from, 1024);
            }
            assertSameAsLookups(v, 65_536 - 10, 20);
            assertThat(v.deletedIn(5, 0, new int[0])).isZero();
        }
    }

    @Test
    void rangesAroundTwoToThe31AndAcrossHighWords() {
        long twoTo31 = 1L << 31;
        long twoTo32 = 1L << 32;
        BitmapDeletionVector v = BitmapDeletionVector.of(3, twoTo31 - 2, twoTo31 - 1, twoTo31, twoTo31 + 5,
                twoTo32 - 1, twoTo32, twoTo32 + 2);
        assertThat(walked(v, twoTo31 - 4, 16)).containsExactly(2, 3, 4, 9);
        assertThat(walked(v, twoTo32 - 3, 8)).containsExactly(2, 3, 5); // two high words
        assertSameAsLookups(v, twoTo31 - 4, 16);
        assertSameAsLookups(v, twoTo32 - 3, 8);
        assertSameAsLookups(v, 0, 10);
        assertThat(walked(v, 3L * twoTo32, 100)).isEmpty(); // a high word the vector has no bitmap for
        assertThat(walked(BitmapDeletionVector.empty(), 0, 100)).isEmpty();
    }

    @Test
    void theDefaultOfOtherVectorsLooksUpEachPosition() {
        DeletionVector even = position -> position % 2 == 0;
        assertThat(walked(even, 11, 6)).containsExactly(1, 3, 5);
    }
}
