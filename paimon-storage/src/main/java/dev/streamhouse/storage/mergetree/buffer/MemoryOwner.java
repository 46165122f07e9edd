package dev.streamhouse.storage.mergetree.buffer;

import java.io.IOException;

/**
 * Something holding pages of a {@link MemoryPool} that can give them back on request (a write buffer
 * of one bucket).
 *
 * <p>Contract: {@link #flushMemory()} is called by the pool on the writer thread, possibly from inside
 * another owner's allocation (or this owner's own). It either frees memory (spills to disk, or drains
 * the records to a level-0 file) and returns its pages to the pool, or declines by returning without
 * change (e.g. when it is already flushing or iterating). It must not block on other threads and must
 * not expect {@link MemoryPool#allocate} to preempt anyone while it runs.
 */
public interface MemoryOwner {

    /** Bytes of pool pages this owner currently holds. */
    long memoryOccupancy();

    /** Frees this owner's memory if it can; see the interface contract. */
    void flushMemory() throws IOException;
}
