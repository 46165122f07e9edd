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
}
