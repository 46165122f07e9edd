package dev.streamhouse.storage.bucket.dynamic;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HashToBucketMapTest {

    @Test
    void behavesLikeAMapForAnyIntKey() {
        HashToBucketMap map = new HashToBucketMap();
        Map<Integer, Integer> reference = new HashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        int[] special = {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 1};
        for (int k : special) {
            assertThat(map.get(k)).isEqualTo(-1);
        }
        for (int i = 0; i < 200_000; i++) {
            // Half random, half clustered keys (multiples of 64 collide in the low bits).
            int key = i % 2 == 0 ? random.nextInt() : (i / 2) * 64;
            if (i < special.length) {
                key = special[i];
            }
            int bucket = random.nextInt(HashToBucketMap.MAX_BUCKET + 1);
            map.put(key, bucket);
            reference.put(key, bucket);
        }
        assertThat(map.size()).isEqualTo(reference.size());
        reference.forEach((k, b) -> assertThat(map.get(k)).isEqualTo(b));
        for (int i = 0; i < 1000; i++) {
            int k = random.nextInt();
            if (!reference.containsKey(k)) {
                assertThat(map.get(k)).isEqualTo(-1);
            }
        }
    }

    @Test
    void putReplacesWithoutGrowing() {
        HashToBucketMap map = new HashToBucketMap();
        map.put(5, 1);
        map.put(5, 32767);
        assertThat(map.get(5)).isEqualTo(32767);
        assertThat(map.size()).isEqualTo(1);
        assertThatThrownBy(() -> map.put(1, 32768)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> map.put(1, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oneMillionKeysTakeAboutTwelveMebibytes() {
        HashToBucketMap map = new HashToBucketMap();
        SplittableRandom random = new SplittableRandom(1);
        for (int i = 0; i < 1_000_000; i++) {
            map.put(random.nextInt(), i % 100);
        }
        // 2^21 slots of 6 bytes = 12 MiB; at most 16 bytes per key in general.
        assertThat(map.memoryBytes()).isEqualTo((1L << 21) * 6);
        assertThat(map.memoryBytes()).isLessThanOrEqualTo(16L * map.size());
    }
}
