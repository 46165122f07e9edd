package dev.streamhouse.storage.mergetree.buffer;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The write-buffer memory of one writer ({@code write-buffer-size}), shared by the buffers of all its
 * buckets and handed out as fixed-size byte-array pages. At most {@link #totalBytes()} of pages exist
 * at any time; released pages are kept for reuse.
 *
 * <p><b>Preemption protocol.</b> When {@link #allocate} finds no free page, it asks registered owners to
 * {@link MemoryOwner#flushMemory() flush}, largest occupancy first (the requester included), and
 * returns a page as soon as one is free. Each owner is asked at most once per allocation, and the
 * search stops after the requester itself was asked: an owner never makes smaller owners flush on its
 * behalf; it gets null and must flush itself. While a preemption is running, nested allocations (from
 * inside a {@code flushMemory}) never preempt again; they only take free pages or get null. Hence an
 * allocation calls at most one round of flushes and always terminates.
 *
 * <p><b>Threading.</b> Not thread-safe and lock-free by design: the pool and all its owners must be used
 * from one thread (the writer's task thread). Owners must not block in {@code flushMemory}.
 */
public final class MemoryPool {
    public static final int DEFAULT_PAGE_SIZE = 64 * 1024;
    private static final int MIN_PAGE_SIZE = 256;

    private final int pageSize;
    private final int maxPages;
    private final ArrayDeque<byte[]> freePages = new ArrayDeque<>();
    private final List<MemoryOwner> owners = new ArrayList<>();
    private int createdPages;
    /** Written by the owning thread only; volatile so that metrics may read it from others. */
    private volatile int usedPages;
    private Runnable onPreemption = () -> { };
    private boolean preempting;

    /** A pool of {@code totalBytes} (rounded down to whole pages) in pages of {@link #DEFAULT_PAGE_SIZE}. */
    public MemoryPool(long totalBytes) {
        this(totalBytes, DEFAULT_PAGE_SIZE);
    }

    /** @param pageSize a power of two of at least 256 bytes */
    public MemoryPool(long totalBytes, int pageSize) {
        if (pageSize < MIN_PAGE_SIZE || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException(
                    "Cannot create a write-buffer memory pool: page size " + pageSize
                            + " must be a power of two of at least " + MIN_PAGE_SIZE + " bytes");
        }
        if (totalBytes < pageSize) {
            throw new IllegalArgumentException("Cannot create a write-buffer memory pool: write-buffer-size "
                    + totalBytes + " bytes is smaller than one page (" + pageSize + " bytes); raise write-buffer-size");
        }
        this.pageSize = pageSize;
        this.maxPages = (int) Math.min(Integer.MAX_VALUE, totalBytes / pageSize);
    }

    public int pageSize() {
        return pageSize;
    }

    public int pageCount() {
        return maxPages;
    }

    public long totalBytes() {
        return (long) maxPages * pageSize;
    }

    /** Bytes of pages currently handed out. */
    public long usedBytes() {
        return (long) usedPages * pageSize;
    }

    public long freeBytes() {
        return totalBytes() - usedBytes();
    }

    /** Runs {@code listener} each time an owner is asked to flush to make room for another. */
    public void onPreemption(Runnable listener) {
        this.onPreemption = java.util.Objects.requireNonNull(listener, "listener");
    }

    /** Makes {@code owner} a candidate for preemption. */
    public void register(MemoryOwner owner) {
        for (MemoryOwner o : owners) {
            if (o == owner) {
                throw new IllegalArgumentException("Cannot register memory owner " + owner + ": already registered");
            }
        }
        owners.add(owner);
    }

    public void unregister(MemoryOwner owner) {
        owners.removeIf(o -> o == owner);
    }

    /**
     * A page for {@code requester}, preempting owners as described in the class comment, or null when
     * none could be freed. The page's content is unspecified.
     *
     * @throws IOException if an owner failed while flushing
     */
    public byte[] allocate(MemoryOwner requester) throws IOException {
        byte[] page = takeFreePage();
        if (page != null || preempting) {
            return page;
        }
        preempting = true;
        try {
            List<MemoryOwner> candidates = new ArrayList<>(owners);
            candidates.sort(Comparator.comparingLong(MemoryOwner::memoryOccupancy).reversed());
            for (MemoryOwner owner : candidates) {
                if (owner.memoryOccupancy() > 0 || owner == requester) {
                    if (owner != requester) {
                        onPreemption.run();
                    }
                    owner.flushMemory();
                    page = takeFreePage();
                    if (page != null || owner == requester) {
                        return page;
                    }
                }
            }
            return null;
        } finally {
            preempting = false;
        }
    }

    private byte[] takeFreePage() {
        byte[] page = freePages.pollFirst();
        if (page == null && createdPages < maxPages) {
            page = new byte[pageSize];
            createdPages++;
        }
        if (page != null) {
            usedPages++;
        }
        return page;
    }

    /** Returns a page obtained from {@link #allocate}; the caller must not use it afterwards. */
    public void release(byte[] page) {
        if (page.length != pageSize) {
            throw new IllegalArgumentException("Cannot release a page of " + page.length
                    + " bytes to a pool of " + pageSize + "-byte pages: it does not come from this pool");
        }
        if (usedPages == 0) {
            throw new IllegalStateException("Cannot release a page: the pool has no pages handed out (double release?)");
        }
        usedPages--;
        freePages.addFirst(page);
    }

    public void release(Collection<byte[]> pages) {
        for (byte[] page : pages) {
            release(page);
        }
    }
}
