package dev.streamhouse.storage.mergetree.buffer;

/**
 * Sorts a paged index of 16-byte entries {@code [long prefix][long pointer]} in place: introsort
 * (median-of-three quicksort with a Hoare partition, heapsort when recursion gets too deep, insertion
 * sort for short ranges). No memory is allocated, so sorting never needs pages from the pool.
 */
final class IndexSorter {
    static final int ENTRY_SIZE = 16;
    private static final int INSERTION_SORT_THRESHOLD = 12;

    /** Orders two entries, given their prefixes and pointers. */
    interface EntryComparator {
        int compare(long prefixA, long pointerA, long prefixB, long pointerB);
    }

    private final byte[][] pages;
    private final int shift;
    private final int mask;
    private final EntryComparator comparator;

    /** @param entriesPerPageShift log2 of the entries per index page */
    IndexSorter(byte[][] pages, int entriesPerPageShift, EntryComparator comparator) {
        this.pages = pages;
        this.shift = entriesPerPageShift;
        this.mask = (1 << entriesPerPageShift) - 1;
        this.comparator = comparator;
    }

    static long prefixAt(byte[][] pages, int shift, int index) {
        int mask = (1 << shift) - 1;
        return (long) ByteWriter.LONGS.get(pages[index >>> shift], (index & mask) * ENTRY_SIZE);
    }

    static long pointerAt(byte[][] pages, int shift, int index) {
        int mask = (1 << shift) - 1;
        return (long) ByteWriter.LONGS.get(pages[index >>> shift], (index & mask) * ENTRY_SIZE + 8);
    }

    void sort(int count) {
        sort(count, 2 * (32 - Integer.numberOfLeadingZeros(count)));
    }

    /** Sorts with an explicit quicksort depth budget (0 = heapsort only); visible for tests. */
    void sort(int count, int depthLimit) {
        if (count > 1) {
            quickSort(0, count - 1, depthLimit);
        }
    }

    private long prefix(int i) {
        return (long) ByteWriter.LONGS.get(pages[i >>> shift], (i & mask) * ENTRY_SIZE);
    }

    private long pointer(int i) {
        return (long) ByteWriter.LONGS.get(pages[i >>> shift], (i & mask) * ENTRY_SIZE + 8);
    }

    private void set(int i, long prefix, long pointer) {
        byte[] page = pages[i >>> shift];
        int offset = (i & mask) * ENTRY_SIZE;
        ByteWriter.LONGS.set(page, offset, prefix);
        ByteWriter.LONGS.set(page, offset + 8, pointer);
    }

    private int compare(int i, int j) {
        return comparator.compare(prefix(i), pointer(i), prefix(j), pointer(j));
    }

    private void swap(int i, int j) {
        long prefixI = prefix(i);
        long pointerI = pointer(i);
        set(i, prefix(j), pointer(j));
        set(j, prefixI, pointerI);
    }

    /** Sorts entries {@code lo..hi} (inclusive). */
    private void quickSort(int lo, int hi, int depth) {
        while (hi - lo >= INSERTION_SORT_THRESHOLD) {
            if (depth-- == 0) {
                heapSort(lo, hi);
                return;
            }
            int mid = (lo + hi) >>> 1;
            if (compare(mid, lo) < 0) {
                swap(mid, lo);
            }
            if (compare(hi, mid) < 0) {
                swap(hi, mid);
                if (compare(mid, lo) < 0) {
                    swap(mid, lo);
                }
            }
            long pivotPrefix = prefix(mid);
            long pivotPointer = pointer(mid);
            int i = lo - 1;
            int j = hi + 1;
            while (true) {
                do {
                    i++;
                } while (comparator.compare(prefix(i), pointer(i), pivotPrefix, pivotPointer) < 0);
                do {
                    j--;
                } while (comparator.compare(prefix(j), pointer(j), pivotPrefix, pivotPointer) > 0);
                if (i >= j) {
                    break;
                }
                swap(i, j);
            }
            // Recurse into the smaller half, loop on the larger: stack depth stays logarithmic.
            if (j - lo < hi - j) {
                quickSort(lo, j, depth);
                lo = j + 1;
            } else {
                quickSort(j + 1, hi, depth);
                hi = j;
            }
        }
        insertionSort(lo, hi);
    }

    private void insertionSort(int lo, int hi) {
        for (int i = lo + 1; i <= hi; i++) {
            long prefix = prefix(i);
            long pointer = pointer(i);
            int j = i - 1;
            while (j >= lo && comparator.compare(prefix(j), pointer(j), prefix, pointer) > 0) {
                set(j + 1, prefix(j), pointer(j));
                j--;
            }
            set(j + 1, prefix, pointer);
        }
    }

    private void heapSort(int lo, int hi) {
        int n = hi - lo + 1;
        for (int i = n / 2 - 1; i >= 0; i--) {
            siftDown(lo, i, n);
        }
        for (int end = n - 1; end > 0; end--) {
            swap(lo, lo + end);
            siftDown(lo, 0, end);
        }
    }

    private void siftDown(int base, int root, int n) {
        while (true) {
            int child = 2 * root + 1;
            if (child >= n) {
                return;
            }
            if (child + 1 < n && compare(base + child + 1, base + child) > 0) {
                child++;
            }
            if (compare(base + root, base + child) >= 0) {
                return;
            }
            swap(base + root, base + child);
            root = child;
        }
    }
}
