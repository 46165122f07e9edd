package dev.streamhouse.storage.bucket.dynamic;

import java.util.Arrays;

/** A growable list of {@code int}s, 4 bytes per element plus slack. Not thread-safe. */
final class IntList {
    private int[] values = new int[8];
    private int size;

    void add(int v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = v;
    }

    int size() {
        return size;
    }

    int[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
