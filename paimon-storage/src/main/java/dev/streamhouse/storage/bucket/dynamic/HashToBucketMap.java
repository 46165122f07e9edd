package dev.streamhouse.storage.bucket.dynamic;

import java.util.Arrays;

/**
 * A primitive map from a key hash (any {@code int}) to a bucket number in {@code [0, 32767]}, with
 * open addressing and linear probing: no boxing, two parallel arrays.
 *
 * <p>Memory: 6 bytes per slot ({@code int} key + {@code short} bucket); the table doubles when it
 * is three quarters full, so a map of n keys uses between 8 and 16 bytes per key (about 12 MiB for
 * one million keys). An empty slot is marked by bucket {@code -1}, so every {@code int} is a valid
 * key. Not thread-safe.
 */
final class HashToBucketMap {
    static final int MAX_BUCKET = Short.MAX_VALUE;
    private static final int MIN_CAPACITY = 16;
    private static final int MAX_CAPACITY = 1 << 30;

    private int[] keys;
    private short[] buckets;
    private int shift;
    private int size;
    private int growAt;

    HashToBucketMap() {
        allocate(MIN_CAPACITY);
    }

    /** The bucket of {@code key}, or -1 if absent. */
    int get(int key) {
        int mask = keys.length - 1;
        for (int i = slot(key); ; i = (i + 1) & mask) {
            short b = buckets[i];
            if (b < 0) {
                return -1;
            }
            if (keys[i] == key) {
                return b;
            }
        }
    }

    /** Maps {@code key} to {@code bucket}, replacing an earlier mapping. */
    void put(int key, int bucket) {
        if (bucket < 0 || bucket > MAX_BUCKET) {
            throw new IllegalArgumentException("bucket " + bucket + " is outside [0, " + MAX_BUCKET + "]");
        }
        if (size >= growAt) {
            grow();
        }
        int mask = keys.length - 1;
        for (int i = slot(key); ; i = (i + 1) & mask) {
            if (buckets[i] < 0) {
                keys[i] = key;
                buckets[i] = (short) bucket;
                size++;
                return;
            }
            if (keys[i] == key) {
                buckets[i] = (short) bucket;
                return;
            }
        }
    }

    int size() {
        return size;
    }

    /** Bytes held by the two arrays. */
    long memoryBytes() {
        return (long) keys.length * (Integer.BYTES + Short.BYTES);
    }

    /** Fibonacci hashing: the high bits of key × 2^32/φ pick the slot, so clustered keys spread out. */
    private int slot(int key) {
        return (key * 0x9E3779B9) >>> shift;
    }

    private void allocate(int capacity) {
        keys = new int[capacity];
        buckets = new short[capacity];
        Arrays.fill(buckets, (short) -1);
        shift = Integer.numberOfLeadingZeros(capacity) + 1;
        growAt = (int) (capacity * 3L / 4);
    }

    private void grow() {
        if (keys.length >= MAX_CAPACITY) {
            throw new IllegalStateException("Cannot hold more than " + size + " key hashes in one partition");
        }
        int[] oldKeys = keys;
        short[] oldBuckets = buckets;
        allocate(keys.length * 2);
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldBuckets[j] >= 0) {
                int i = slot(oldKeys[j]);
                while (buckets[i] >= 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                buckets[i] = oldBuckets[j];
            }
        }
    }
}
