package dev.streamhouse.storage.mergetree.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class IndexSorterTest {

    /** Sorts random (prefix, pointer) entries by unsigned prefix then pointer, and checks against Arrays.sort. */
    @ParameterizedTest(name = "n={0}, distinct prefixes={1}, depth={2}")
    @CsvSource({
        "0, 10, -1", "1, 10, -1", "2, 1, -1", "13, 3, -1", "1000, 1000000, -1", "5000, 4, -1", "20000, 1, -1",
        "3000, 1000, 0", "3000, 2, 1", "100000, 100000000, -1"})
    void sortsLikeArraysSort(int n, int distinctPrefixes, int depthLimit) {
        Random random = new Random(n * 31L + distinctPrefixes);
        int pageSize = 256;
        int shift = Integer.numberOfTrailingZeros(pageSize / IndexSorter.ENTRY_SIZE);
        int perPage = 1 << shift;
        byte[][] pages = new byte[Math.max(1, (n + perPage - 1) / perPage)][pageSize];
        long[][] expected = new long[n][];
        for (int i = 0; i < n; i++) {
            long prefix = (random.nextInt(distinctPrefixes) - distinctPrefixes / 2) * 0x9E3779B97F4A7C15L;
            long pointer = i; // unique, so the order is total
            ByteWriter.LONGS.set(pages[i / perPage], (i % perPage) * 16, prefix);
            ByteWriter.LONGS.set(pages[i / perPage], (i % perPage) * 16 + 8, pointer);
            expected[i] = new long[] {prefix, pointer};
        }
        IndexSorter.EntryComparator comparator = (pa, qa, pb, qb) -> {
            int c = Long.compareUnsigned(pa, pb);
            return c != 0 ? c : Long.compare(qa, qb);
        };
        IndexSorter sorter = new IndexSorter(pages, shift, comparator);
        if (depthLimit < 0) {
            sorter.sort(n);
        } else {
            sorter.sort(n, depthLimit);
        }
        Arrays.sort(expected, (a, b) -> comparator.compare(a[0], a[1], b[0], b[1]));
        long[][] actual = new long[n][];
        for (int i = 0; i < n; i++) {
            actual[i] = new long[] {IndexSorter.prefixAt(pages, shift, i), IndexSorter.pointerAt(pages, shift, i)};
        }
        assertThat(Arrays.deepEquals(actual, expected)).as("sorted entries equal Arrays.sort").isTrue();
    }

    /**
     * Prefixes as a BIGINT or INT key makes them (sign bit flipped, few significant low bytes, so the
     * radix passes skip the shared high bytes), some keys with many versions, and pointers in random
     * order so ties are decided by the comparator.
     */
    @ParameterizedTest(name = "n={0}, keys={1}, hot key versions={2}")
    @CsvSource({"100, 10, 0", "5000, 300, 0", "50000, 15000, 0", "50000, 40000, 3000", "70000, 1, 0", "200000, 70000, 500"})
    void sortsKeyLikePrefixesWithManyVersions(int n, int keys, int hotVersions) {
        Random random = new Random(n * 17L + keys);
        int pageSize = 4096;
        int shift = Integer.numberOfTrailingZeros(pageSize / IndexSorter.ENTRY_SIZE);
        int perPage = 1 << shift;
        byte[][] pages = new byte[Math.max(1, (n + perPage - 1) / perPage)][pageSize];
        long[] pointers = new long[n];
        for (int i = 0; i < n; i++) {
            pointers[i] = ((long) random.nextInt(1000) << 32) | i;
        }
        long[][] expected = new long[n][];
        for (int i = 0; i < n; i++) {
            long key = i < hotVersions ? 42 : random.nextInt(keys) - keys / 3;
            long prefix = key ^ Long.MIN_VALUE;
            ByteWriter.LONGS.set(pages[i / perPage], (i % perPage) * 16, prefix);
            ByteWriter.LONGS.set(pages[i / perPage], (i % perPage) * 16 + 8, pointers[i]);
            expected[i] = new long[] {prefix, pointers[i]};
        }
        IndexSorter.EntryComparator comparator = (pa, qa, pb, qb) -> {
            int c = Long.compareUnsigned(pa, pb);
            return c != 0 ? c : Long.compare(qa, qb);
        };
        new IndexSorter(pages, shift, comparator).sort(n);
        Arrays.sort(expected, (a, b) -> comparator.compare(a[0], a[1], b[0], b[1]));
        long[][] actual = new long[n][];
        for (int i = 0; i < n; i++) {
            actual[i] = new long[] {IndexSorter.prefixAt(pages, shift, i), IndexSorter.pointerAt(pages, shift, i)};
        }
        assertThat(Arrays.deepEquals(actual, expected)).as("sorted entries equal Arrays.sort").isTrue();
    }
}
