package dev.streamhouse.flink.source.lookup;

import dev.streamhouse.storage.lookup.LookupTable;
import org.apache.flink.table.data.RowData;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The rows of recently probed join keys, misses included ({@code lookup.cache-rows}): a direct-mapped
 * table of at least that many slots, a key's slot chosen by the hash of its encoding, a new key
 * replacing the one in its slot. Entries carry the generation of the copy they were read from and
 * count only for that generation, so a refresh that changed the copy invalidates all of them at once.
 * Lock-free: entries are immutable and published through an atomic array.
 */
final class RecentKeys {
    private static final int MAX_SLOTS = 1 << 24;

    private record Entry(byte[] key, long generation, List<RowData> rows) {}

    private final AtomicReferenceArray<Entry> slots;
    private final int mask;

    RecentKeys(long capacity) {
        int size = Integer.highestOneBit((int) Math.min(MAX_SLOTS, Math.max(1, capacity)) * 2 - 1);
        this.slots = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
    }

    /** The rows cached for {@code key} in {@code generation}, or null. */
    List<RowData> get(byte[] key, long generation) {
        Entry e = slots.get(slot(key));
        return e != null && e.generation == generation && Arrays.equals(e.key, key) ? e.rows : null;
    }

    void put(byte[] key, long generation, List<RowData> rows) {
        slots.set(slot(key), new Entry(key, generation, rows));
    }

    private int slot(byte[] key) {
        return LookupTable.hashEncodedKey(key) & mask;
    }
}
