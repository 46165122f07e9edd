package dev.streamhouse.storage.mergetree.buffer;

/**
 * Sorts a paged index of 16-byte entries {@code [long prefix][long pointer]} in place. The order puts
 * smaller unsigned prefixes first and lets the comparator decide between equal ones, so the sort is a
 * most-significant-byte radix sort on the prefixes (in place, American flag style; a byte that all
 * entries of a range share costs one counting pass) that hands short ranges and ranges of equal
 * prefixes to an introsort with the comparator (median-of-three quicksort with a Hoare partition,
 * heapsort when recursion gets too deep, insertion sort for short ranges). Besides a few small count
 * arrays no memory is allocated, so sorting never needs pages from the pool.
 */
final class IndexSorter {
    static final int ENTRY_SIZE = 16;
    private static final int INSERTION_SORT_THRESHOLD = 12;
    /** Ranges up to this size go to the comparison sort instead of another radix pass. */
    private static final int RADIX_THRESHOLD = 64;

    /**
     * Orders two entries, given their prefixes and pointers: by {@code Long.compareUnsigned} of the
     * prefixes first (the radix passes rely on it), then as it likes.
     */
    interface EntryComparator {
        int compare(long prefixA, long pointerA, long prefixB, long pointerB);
    }

    private final byte[][] pages;
    private final int shift;
    private final int mask;
    private final EntryComparator comparator;
    /** Per prefix byte (radix level): bucket counts, then the next free slot of each bucket. */
    private final int[][] next = new int[8][256];
    /** Per radix level: the end of each bucket. */
    private final int[][] ends = new int[8][256];

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
        if (count > 1) {
            radixSort(0, count, 0);
        }
    }

    /** Sorts by comparisons only, with an explicit quicksort depth budget (0 = heapsort only); visible for tests. */
    void sort(int count, int depthLimit) {
        if (count > 1) {
            quickSort(0, count - 1, depthLimit);
        }
    }

    /** Sorts entries {@code [lo, hi)}, whose prefixes agree on the bytes before {@code level}. */
    private void radixSort(int lo, int hi, int level) {
        while (true) {
            if (hi - lo <= RADIX_THRESHOLD || level == 8) {
                comparisonSort(lo, hi - 1);
                return;
            }
            int shift = 56 - 8 * level;
            int[] counts = next[level];
            java.util.Arrays.fill(counts, 0);
            for (int i = lo; i < hi; i++) {
                counts[(int) (prefix(i) >>> shift) & 0xFF]++;
            }
            int first = (int) (prefix(lo) >>> shift) & 0xFF;
            if (counts[first] == hi - lo) {
                level++; // every entry has this byte: on to the next one
                continue;
            }
            int[] end = ends[level];
            int start = lo;
            for (int b = 0; b < 256; b++) {
                int n = counts[b];
                counts[b] = start;
                start += n;
                end[b] = start;
            }
            for (int b = 0; b < 256; b++) {
                while (counts[b] < end[b]) {
                    int i = counts[b];
                    long prefix = prefix(i);
                    long pointer = pointer(i);
                    int digit = (int) (prefix >>> shift) & 0xFF;
                    // Carry the entry to its bucket, taking the one there along, until one belongs in b.
                    while (digit != b) {
                        int j = counts[digit]++;
                        long displacedPrefix = prefix(j);
                        long displacedPointer = pointer(j);
                        set(j, prefix, pointer);
                        prefix = displacedPrefix;
                        pointer = displacedPointer;
                        digit = (int) (prefix >>> shift) & 0xFF;
                    }
                    set(i, prefix, pointer);
                    counts[b]++;
                }
            }
            int bucketStart = lo;
            for (int b = 0; b < 256; b++) {
                int bucketEnd = end[b];
                if (bucketEnd - bucketStart > 1) {
                    radixSort(bucketStart, bucketEnd, level + 1);
                }
                bucketStart = bucketEnd;
            }
            return;
        }
    }

    private void comparisonSort(int lo, int hi) {
        if (hi > lo) {
            quickSort(lo, hi, 2 * (32 - Integer.numberOfLeadingZeros(hi - lo + 1)));
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
