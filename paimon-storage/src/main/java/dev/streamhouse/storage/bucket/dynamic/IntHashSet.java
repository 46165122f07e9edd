package dev.streamhouse.storage.bucket.dynamic;

/**
 * A set of {@code int}s with open addressing and linear probing, no boxing: 4 bytes per slot plus
 * one bit, resized at three quarters full (5–11 bytes per element). Every {@code int} is a valid
 * element. Not thread-safe.
 */
final class IntHashSet {
    private static final int MIN_CAPACITY = 16;
    private static final int MAX_CAPACITY = 1 << 30;

    private int[] values;
    private boolean[] used;
    private int shift;
    private int size;
    private int growAt;

    IntHashSet() {
        allocate(MIN_CAPACITY);
    }

    /** Adds {@code value}; returns whether it was absent. */
    boolean add(int value) {
        if (size >= growAt) {
            grow();
        }
        int mask = values.length - 1;
        for (int i = slot(value); ; i = (i + 1) & mask) {
            if (!used[i]) {
                used[i] = true;
                values[i] = value;
                size++;
                return true;
            }
            if (values[i] == value) {
                return false;
            }
        }
    }

    boolean contains(int value) {
        int mask = values.length - 1;
        for (int i = slot(value); used[i]; i = (i + 1) & mask) {
            if (values[i] == value) {
                return true;
            }
        }
        return false;
    }

    int size() {
        return size;
    }

    /** The elements, in no particular order. */
    int[] toArray() {
        int[] out = new int[size];
        int n = 0;
        for (int i = 0; i < values.length; i++) {
            if (used[i]) {
                out[n++] = values[i];
            }
        }
        return out;
    }

    long memoryBytes() {
        return (long) values.length * (Integer.BYTES + 1);
    }

    private int slot(int value) {
        return (value * 0x9E3779B9) >>> shift;
    }

    private void allocate(int capacity) {
        values = new int[capacity];
        used = new boolean[capacity];
        shift = Integer.numberOfLeadingZeros(capacity) + 1;
        growAt = (int) (capacity * 3L / 4);
    }

    private void grow() {
        if (values.length >= MAX_CAPACITY) {
            throw new IllegalStateException("Cannot hold more than " + size + " key hashes in one bucket");
        }
        int[] oldValues = values;
        boolean[] oldUsed = used;
        allocate(values.length * 2);
        int mask = values.length - 1;
        for (int j = 0; j < oldValues.length; j++) {
            if (oldUsed[j]) {
                int i = slot(oldValues[j]);
                while (used[i]) {
                    i = (i + 1) & mask;
                }
                used[i] = true;
                values[i] = oldValues[j];
            }
        }
    }
}
