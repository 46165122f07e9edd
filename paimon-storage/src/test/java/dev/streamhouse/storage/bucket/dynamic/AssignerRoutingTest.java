package dev.streamhouse.storage.bucket.dynamic;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AssignerRoutingTest {

    @Test
    void channelIsPartitionStartPlusKeyOffsetModuloTasks() {
        // Values checked against Paimon 1.3.1's BucketAssigner.computeAssigner (see the e2e test).
        assertThat(AssignerRouting.channel(0, 5, 4, 4)).isEqualTo(1);
        assertThat(AssignerRouting.channel(7, 5, 4, 2)).isEqualTo(0);
        assertThat(AssignerRouting.channel(-7, 5, 4, 2)).isEqualTo(0);
        assertThat(AssignerRouting.channel(7, -5, 4, 2)).isEqualTo(0);
        assertThat(AssignerRouting.channel(3, 10, 8, 4)).isEqualTo(5);
        assertThat(AssignerRouting.channel(100, -37, 6, 3)).isEqualTo(5);
        assertThat(AssignerRouting.channel(Integer.MIN_VALUE, Integer.MIN_VALUE, 7, 7)).isEqualTo(4); // |-2| + |-2|
    }

    @Test
    void anAssignerReceivesOnlyItsKeysAndOwnsEveryNthBucket() {
        AssignerRouting r = new AssignerRouting(4, 2, 3);
        assertThat(r.receives(2, 1)).isTrue();   // |2%4| + |1%2| = 3
        assertThat(r.receives(2, 2)).isFalse();  // -> 2
        assertThat(r.receives(-3, 0)).isTrue();  // |-3%4| = 3
        assertThat(r.firstBucket()).isEqualTo(1);
        assertThat(r.ownsBucket(1)).isTrue();
        assertThat(r.ownsBucket(7)).isTrue();
        assertThat(r.ownsBucket(4)).isFalse();
        AssignerRouting single = AssignerRouting.single();
        assertThat(single.receives(123, -456)).isTrue();
        assertThat(single.ownsBucket(0)).isTrue();
        assertThat(single.ownsBucket(32767)).isTrue();
    }

    @Test
    void numAssignersIsInitialBucketsCappedByTasks() {
        assertThat(AssignerRouting.numAssigners(null, 4)).isEqualTo(4);
        assertThat(AssignerRouting.numAssigners(2, 4)).isEqualTo(2);
        assertThat(AssignerRouting.numAssigners(8, 4)).isEqualTo(4);
    }

    @Test
    void rejectsInvalidLayoutsAndTellsOverlappingOnes() {
        assertThatThrownBy(() -> new AssignerRouting(0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AssignerRouting(2, 3, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new AssignerRouting(2, 2, 2)).isInstanceOf(IllegalArgumentException.class);
        // 3 tasks, 2 per partition: tasks 0 and 2 may both open even buckets of one partition.
        assertThat(new AssignerRouting(3, 2, 0).ownsDisjointBuckets()).isFalse();
        assertThat(new AssignerRouting(3, 2, 2).ownsBucket(4)).isTrue();
        assertThat(new AssignerRouting(3, 2, 0).ownsBucket(4)).isTrue();
        assertThat(new AssignerRouting(4, 2, 1).ownsDisjointBuckets()).isTrue();
    }
}
