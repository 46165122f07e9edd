package dev.streamhouse.storage.lookup;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * {@link LookupStores} on the heap: open-addressing tables for point stores ({@link PointTable}),
 * sorted maps for ordered ones, all counting the bytes they hold against one budget.
 */
final class HeapStores implements LookupStores {
    /** Object headers, map node and array headers of one entry of an ordered store, roughly (64-bit JVM). */
    private static final int ENTRY_OVERHEAD = 96;
    /** Array header, length prefix and slot share of one entry of a point store, roughly. */
    private static final int POINT_ENTRY_OVERHEAD = 40;

    private final long budgetBytes;
    private final AtomicLong bytes = new AtomicLong();

    HeapStores(long budgetBytes) {
        this.budgetBytes = budgetBytes;
    }

    @Override
    public KeyValueStore open(String name, boolean ordered, long expectedEntries) {
        if (ordered) {
            return new OrderedStore();
        }
        long fitting = budgetBytes / POINT_ENTRY_OVERHEAD;
        return new PointStore((int) Math.min(Math.min(expectedEntries, fitting), 1 << 26));
    }

    @Override
    public void finishLoad() {
        // Heap tables answer lookups as they are.
    }

    @Override
    public long diskBytes() {
        return 0;
    }

    @Override
    public void close() {}

    private void account(long delta) {
        if (bytes.addAndGet(delta) > budgetBytes && delta > 0) {
            throw new HeapBudgetExceededException(budgetBytes);
        }
    }

    private static long size(byte[] key, byte[] value) {
        return key.length + value.length + ENTRY_OVERHEAD;
    }

    /** Point stores: open addressing over combined key-value entries ({@link PointTable}). */
    private final class PointStore implements KeyValueStore {
        private final PointTable entries;

        PointStore(int expectedEntries) {
            this.entries = new PointTable(expectedEntries);
        }

        @Override
        public byte[] get(byte[] key) {
            return entries.get(key, KeyBytes.hash(key));
        }

        @Override
        public void put(byte[] key, byte[] value) {
            int old = entries.put(key, KeyBytes.hash(key), value);
            account(old < 0 ? key.length + value.length + POINT_ENTRY_OVERHEAD : value.length - old);
        }

        @Override
        public void delete(byte[] key) {
            int old = entries.remove(key, KeyBytes.hash(key));
            if (old >= 0) {
                account(-(key.length + old + POINT_ENTRY_OVERHEAD));
            }
        }

        @Override
        public void scanPrefix(byte[] prefix, BiConsumer<byte[], byte[]> entry) {
            throw new UnsupportedOperationException("a point store cannot visit keys by prefix");
        }

        @Override
        public void close() {
            entries.clear();
        }
    }

    private final class OrderedStore implements KeyValueStore {
        private final ConcurrentSkipListMap<byte[], byte[]> entries = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);

        @Override
        public byte[] get(byte[] key) {
            return entries.get(key);
        }

        @Override
        public void put(byte[] key, byte[] value) {
            byte[] old = entries.put(key, value);
            account(old == null ? size(key, value) : value.length - old.length);
        }

        @Override
        public void delete(byte[] key) {
            byte[] old = entries.remove(key);
            if (old != null) {
                account(-size(key, old));
            }
        }

        @Override
        public void scanPrefix(byte[] prefix, BiConsumer<byte[], byte[]> entry) {
            for (Map.Entry<byte[], byte[]> e : entries.tailMap(prefix, true).entrySet()) {
                if (!KeyBytes.startsWith(e.getKey(), prefix)) {
                    return;
                }
                entry.accept(e.getKey(), e.getValue());
            }
        }

        @Override
        public void close() {
            entries.clear();
        }
    }
}
