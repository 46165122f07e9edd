package dev.streamhouse.storage.bucket.dynamic;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionBucketIndexTest {

    private static List<Integer> assignAll(PartitionBucketIndex index, int from, int to) {
        List<Integer> buckets = new ArrayList<>();
        for (int h = from; h < to; h++) {
            buckets.add(index.assign(h));
        }
        return buckets;
    }

    @Test
    void newKeysFillABucketToTheTargetThenOpenTheNext() {
        PartitionBucketIndex index = new PartitionBucketIndex(3, -1, AssignerRouting.single());
        assertThat(assignAll(index, 0, 10)).containsExactly(0, 0, 0, 1, 1, 1, 2, 2, 2, 3);
        assertThat(index.assign(4)).isEqualTo(1);
        assertThat(index.assign(9)).isEqualTo(3);
        assertThat(index.size()).isEqualTo(10);
        assertThat(index.ownBuckets()).containsExactly(0, 1, 2, 3);
    }

    @Test
    void tracksTheHashesAddedPerBucketUntilCleared() {
        PartitionBucketIndex index = new PartitionBucketIndex(2, -1, AssignerRouting.single());
        assertThat(index.hasPendingChanges()).isFalse();
        assignAll(index, 10, 15);
        assertThat(index.pendingChanges()).containsOnlyKeys(0, 1, 2);
        assertThat(index.pendingChanges().get(0)).containsExactly(10, 11);
        assertThat(index.pendingChanges().get(2)).containsExactly(14);
        index.clearPendingChanges();
        assertThat(index.hasPendingChanges()).isFalse();
        index.assign(12);                       // known: no change
        assertThat(index.hasPendingChanges()).isFalse();
        index.assign(99);                       // fills bucket 2
        assertThat(index.pendingChanges()).containsOnlyKeys(2);
        assertThat(index.pendingChanges().get(2)).containsExactly(99);
    }

    @Test
    void restoredHashesKeepTheirBucketsAndPartlyFilledBucketsAreFilledFirst() {
        PartitionBucketIndex index = new PartitionBucketIndex(3, -1, AssignerRouting.single());
        index.restoreBucket(0, new int[] {100, 101, 102}, h -> true);
        index.restoreBucket(2, new int[] {103}, h -> true);
        assertThat(index.hasPendingChanges()).isFalse();
        assertThat(index.assign(101)).isEqualTo(0);
        assertThat(index.assign(103)).isEqualTo(2);
        // Bucket 2 has room for two keys; then the lowest unused number, 1, opens.
        assertThat(assignAll(index, 0, 6)).containsExactly(2, 2, 1, 1, 1, 3);
        assertThat(index.pendingChanges().keySet()).containsExactly(1, 2, 3);
    }

    @Test
    void partlyFilledRestoredBucketsAreTriedInPaimonsHashMapOrder() {
        // Verified against Paimon 1.3.1 (e2e): manifest order 35, 19, 3, 33, 1, 17, one key each, target 3.
        // Slots of a 16-slot HashMap: {33, 1, 17} -> 1, {35, 19, 3} -> 3; compute() inserts at the
        // head of a slot, so each slot is tried in reverse manifest order.
        PartitionBucketIndex index = new PartitionBucketIndex(3, -1, AssignerRouting.single());
        int hash = 1000;
        for (int bucket : new int[] {35, 19, 3, 33, 1, 17}) {
            index.restoreBucket(bucket, new int[] {hash++}, h -> true);
        }
        assertThat(assignAll(index, 0, 15)).containsExactly(17, 17, 1, 1, 33, 33, 3, 3, 19, 19, 35, 35, 0, 0, 0);
    }

    @Test
    void restoreCountsEveryHashButMapsOnlyThoseRoutedHere() {
        // Assigner 1 of 2: owns odd buckets, receives odd hashes (partition hash 0).
        AssignerRouting routing = new AssignerRouting(2, 2, 1);
        PartitionBucketIndex index = new PartitionBucketIndex(3, -1, routing);
        index.restoreBucket(0, new int[] {2, 3}, h -> routing.receives(0, h));   // not owned
        index.restoreBucket(1, new int[] {4, 6}, h -> routing.receives(0, h));   // owned, hashes not routed here
        assertThat(index.bucketOf(3)).isEqualTo(0);
        assertThat(index.bucketOf(2)).isEqualTo(-1);
        assertThat(index.bucketOf(4)).isEqualTo(-1);
        // Bucket 1 holds 2 keys: one more fits, then buckets 3 and 5 open (never 0 or 2).
        assertThat(assignAll(index, 11, 18)).containsExactly(1, 3, 3, 3, 5, 5, 5);
        assertThat(index.ownBuckets()).containsExactly(1, 3, 5);
    }

    @Test
    void atMaxBucketsNewKeysSpreadDeterministicallyOverTheOwnBuckets() {
        PartitionBucketIndex a = new PartitionBucketIndex(2, 3, AssignerRouting.single());
        PartitionBucketIndex b = new PartitionBucketIndex(2, 3, AssignerRouting.single());
        assertThat(assignAll(a, 0, 6)).containsExactly(0, 0, 1, 1, 2, 2);
        List<Integer> overflow = assignAll(a, 6, 3006);
        assignAll(b, 0, 6);
        assertThat(assignAll(b, 6, 3006)).isEqualTo(overflow);
        Map<Integer, Integer> counts = new HashMap<>();
        overflow.forEach(x -> counts.merge(x, 1, Integer::sum));
        assertThat(counts).containsOnlyKeys(0, 1, 2);
        counts.values().forEach(n -> assertThat(n).isBetween(800, 1200));
        assertThat(a.assign(100)).isEqualTo(overflow.get(94)); // remembered
    }

    @Test
    void maxBucketsIsCheckedAgainstTheHighestBucketOfTheWholeAssigner() {
        // Paimon 1.3's rule: once any partition reached max-buckets, a later partition opens only its first bucket.
        HighestBucket shared = new HighestBucket();
        PartitionBucketIndex p1 = new PartitionBucketIndex(2, 3, AssignerRouting.single(), shared);
        PartitionBucketIndex p2 = new PartitionBucketIndex(2, 3, AssignerRouting.single(), shared);
        assertThat(assignAll(p1, 0, 6)).containsExactly(0, 0, 1, 1, 2, 2);
        assertThat(assignAll(p2, 0, 7)).containsOnly(0);
        assertThat(p2.ownBuckets()).containsExactly(0);
    }

    @Test
    void maxBucketsTooSmallForAnAssignerFailsClearly() {
        PartitionBucketIndex index = new PartitionBucketIndex(5, 1, new AssignerRouting(2, 2, 1));
        assertThatThrownBy(() -> index.assign(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("max-buckets");
    }

    @Test
    void unlimitedUsesBucketsUpTo32766() {
        PartitionBucketIndex single = new PartitionBucketIndex(1, -1, AssignerRouting.single());
        int highest = -1;
        for (int h = 0; h < 32767; h++) {
            highest = Math.max(highest, single.assign(h));
        }
        assertThat(highest).isEqualTo(32766);
        assertThat(single.ownBuckets()).hasSize(32767);
        assertThat(single.assign(-5)).isBetween(0, 32766);  // spreads, as Paimon does

        // Assigner 1 of 2 owns 1, 3, ..., 32765 and then has no number left.
        PartitionBucketIndex odd = new PartitionBucketIndex(1, -1, new AssignerRouting(2, 2, 1));
        for (int h = 0; h < 16383; h++) {
            odd.assign(h);
        }
        assertThatThrownBy(() -> odd.assign(-1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("32766");
    }

    @Test
    void maxBucketsAbove32768ActsAs32768() {
        PartitionBucketIndex index = new PartitionBucketIndex(1, 40_000, AssignerRouting.single());
        int highest = -1;
        for (int h = 0; h < 32768; h++) {
            highest = Math.max(highest, index.assign(h));
        }
        assertThat(highest).isEqualTo(32767);
        assertThat(index.assign(-1)).isBetween(0, 32767);
    }

    @Test
    void rejectsInvalidOptions() {
        assertThatThrownBy(() -> new PartitionBucketIndex(0, -1, AssignerRouting.single()))
                .hasMessageContaining("target-row-num");
        assertThatThrownBy(() -> new PartitionBucketIndex(1, 0, AssignerRouting.single()))
                .hasMessageContaining("max-buckets");
        assertThatThrownBy(() -> new PartitionBucketIndex(1, -2, AssignerRouting.single()))
                .hasMessageContaining("max-buckets");
    }
}
