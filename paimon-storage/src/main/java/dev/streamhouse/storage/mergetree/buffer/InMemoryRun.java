package dev.streamhouse.storage.mergetree.buffer;

import java.util.ArrayList;
import java.util.List;

/**
 * The in-memory part of a write buffer: records appended into data pages, plus an index of 16-byte
 * entries {@code [normalized key prefix][pointer]} in index pages, where a pointer is
 * {@code pageNumber << 32 | offsetInPage}. Sorting permutes only the index. All pages come from the
 * caller (who obtains them from the {@link MemoryPool}); this class never allocates pages itself.
 *
 * <p>A record's header and key always lie in one page (so keys are compared in place); the value may
 * continue on the following pages. Not thread-safe.
 */
final class InMemoryRun {
    private final int pageSize;
    private final int indexShift;
    private final SerializedKeyComparator comparator;
    private final boolean prefixDetermines;
    private final List<byte[]> dataPages = new ArrayList<>();
    private final List<byte[]> indexPages = new ArrayList<>();
    private int writeOffset;
    private int count;
    private long recordBytes;
    private boolean sorted = true;
    /** Whether every record so far came with a sequence number at least its predecessor's. */
    private boolean sequenceInAppendOrder = true;
    private long lastSequence = Long.MIN_VALUE;

    InMemoryRun(int pageSize, SerializedKeyComparator comparator, boolean prefixDetermines) {
        this.pageSize = pageSize;
        this.indexShift = Integer.numberOfTrailingZeros(pageSize / IndexSorter.ENTRY_SIZE);
        this.comparator = comparator;
        this.prefixDetermines = prefixDetermines;
    }

    int size() {
        return count;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** Bytes of the records themselves (what a spill writes before compression). */
    long recordBytes() {
        return recordBytes;
    }

    int pageCount() {
        return dataPages.size() + indexPages.size();
    }

    /** Fresh pages {@link #append} needs for a record of {@code recordSize} bytes. */
    int pagesNeeded(int recordSize, int headerAndKeySize) {
        int pages = (count >>> indexShift) == indexPages.size() ? 1 : 0;
        int remaining = dataPages.isEmpty() ? 0 : pageSize - writeOffset;
        if (remaining >= headerAndKeySize) {
            int overflow = recordSize - remaining;
            return overflow > 0 ? pages + ceilDiv(overflow, pageSize) : pages;
        }
        return pages + ceilDiv(recordSize, pageSize);
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /**
     * Appends a serialized record, taking exactly {@link #pagesNeeded} pages from the end of
     * {@code freshPages}.
     */
    void append(byte[] record, int recordSize, int headerAndKeySize, long prefix, List<byte[]> freshPages) {
        if ((count >>> indexShift) == indexPages.size()) {
            indexPages.add(take(freshPages));
        }
        if (dataPages.isEmpty() || pageSize - writeOffset < headerAndKeySize) {
            dataPages.add(take(freshPages));
            writeOffset = 0;
        }
        long pointer = ((long) (dataPages.size() - 1) << 32) | writeOffset;
        long sequence = RecordLayout.sequenceNumber(record, 0);
        sequenceInAppendOrder &= sequence >= lastSequence;
        lastSequence = sequence;
        int copied = 0;
        while (true) {
            int n = Math.min(recordSize - copied, pageSize - writeOffset);
            System.arraycopy(record, copied, dataPages.get(dataPages.size() - 1), writeOffset, n);
            copied += n;
            writeOffset += n;
            if (copied == recordSize) {
                break;
            }
            dataPages.add(take(freshPages));
            writeOffset = 0;
        }
        byte[] indexPage = indexPages.get(count >>> indexShift);
        int entry = (count & ((1 << indexShift) - 1)) * IndexSorter.ENTRY_SIZE;
        ByteWriter.LONGS.set(indexPage, entry, prefix);
        ByteWriter.LONGS.set(indexPage, entry + 8, pointer);
        count++;
        recordBytes += recordSize;
        sorted = false;
    }

    private static byte[] take(List<byte[]> pages) {
        if (pages.isEmpty()) {
            throw new IllegalStateException("Cannot append to the write buffer: fewer pages than pagesNeeded()");
        }
        return pages.remove(pages.size() - 1);
    }

    /**
     * Sorts the index by key, then sequence number. Idempotent. Pointers grow in append order, so when the
     * sequence numbers came in that order too (a writer's always do), ties are broken by the pointers
     * alone, and with a determining prefix the sort never reads the records.
     */
    void sort() {
        if (sorted) {
            return;
        }
        new IndexSorter(indexPages.toArray(new byte[0][]), indexShift, entryOrder()).sort(count);
        sorted = true;
    }

    private IndexSorter.EntryComparator entryOrder() {
        byte[][] data = dataPages.toArray(new byte[0][]);
        if (sequenceInAppendOrder && prefixDetermines) {
            return (prefixA, pointerA, prefixB, pointerB) -> {
                int c = Long.compareUnsigned(prefixA, prefixB);
                return c != 0 ? c : Long.compare(pointerA, pointerB);
            };
        }
        if (sequenceInAppendOrder) {
            return (prefixA, pointerA, prefixB, pointerB) -> {
                int c = Long.compareUnsigned(prefixA, prefixB);
                if (c != 0) {
                    return c;
                }
                c = comparator.compare(data[(int) (pointerA >>> 32)], (int) pointerA + RecordLayout.KEY_OFFSET,
                        data[(int) (pointerB >>> 32)], (int) pointerB + RecordLayout.KEY_OFFSET);
                return c != 0 ? c : Long.compare(pointerA, pointerB);
            };
        }
        return (prefixA, pointerA, prefixB, pointerB) -> {
            int c = Long.compareUnsigned(prefixA, prefixB);
            if (c != 0) {
                return c;
            }
            byte[] pageA = data[(int) (pointerA >>> 32)];
            byte[] pageB = data[(int) (pointerB >>> 32)];
            int offsetA = (int) pointerA;
            int offsetB = (int) pointerB;
            if (!prefixDetermines) {
                c = comparator.compare(pageA, offsetA + RecordLayout.KEY_OFFSET, pageB, offsetB + RecordLayout.KEY_OFFSET);
                if (c != 0) {
                    return c;
                }
            }
            return Long.compare(RecordLayout.sequenceNumber(pageA, offsetA), RecordLayout.sequenceNumber(pageB, offsetB));
        };
    }

    /** A cursor in sorted order; call {@link #sort()} first. Invalid after {@link #releasePages()}. */
    RecordCursor sortedCursor() {
        if (!sorted) {
            throw new IllegalStateException("Cannot iterate the in-memory run: it is not sorted");
        }
        return new Cursor(dataPages.toArray(new byte[0][]), indexPages.toArray(new byte[0][]), count);
    }

    /** Forgets all records and hands back every page (data and index) for release to the pool. */
    List<byte[]> releasePages() {
        List<byte[]> pages = new ArrayList<>(dataPages.size() + indexPages.size());
        pages.addAll(dataPages);
        pages.addAll(indexPages);
        dataPages.clear();
        indexPages.clear();
        writeOffset = 0;
        count = 0;
        recordBytes = 0;
        sorted = true;
        sequenceInAppendOrder = true;
        lastSequence = Long.MIN_VALUE;
        return pages;
    }

    /** Walks the sorted index; copies a record that spans pages into a scratch array. */
    private final class Cursor implements RecordCursor {
        private final byte[][] data;
        private final byte[][] index;
        private final int size;
        private int next;
        private byte[] buffer;
        private int offset;
        private byte[] scratch = new byte[0];

        Cursor(byte[][] data, byte[][] index, int size) {
            this.data = data;
            this.index = index;
            this.size = size;
        }

        @Override
        public boolean advance() {
            if (next >= size) {
                buffer = null;
                return false;
            }
            long pointer = IndexSorter.pointerAt(index, indexShift, next++);
            int pageNumber = (int) (pointer >>> 32);
            int start = (int) pointer;
            byte[] page = data[pageNumber];
            int recordSize = RecordLayout.recordSize(page, start);
            if (start + recordSize <= pageSize) {
                buffer = page;
                offset = start;
                return true;
            }
            if (scratch.length < recordSize) {
                scratch = new byte[Math.max(recordSize, scratch.length * 2)];
            }
            int copied = 0;
            int from = start;
            while (copied < recordSize) {
                int n = Math.min(recordSize - copied, pageSize - from);
                System.arraycopy(data[pageNumber], from, scratch, copied, n);
                copied += n;
                pageNumber++;
                from = 0;
            }
            buffer = scratch;
            offset = 0;
            return true;
        }

        @Override
        public byte[] buffer() {
            return buffer;
        }

        @Override
        public int offset() {
            return offset;
        }
    }
}
