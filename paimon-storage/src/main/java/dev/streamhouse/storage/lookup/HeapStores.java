package dev.streamhouse.storage.lookup;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * {@link LookupStores} on the heap: hash maps for point stores, sorted maps for ordered ones, all
 * counting the bytes they hold against one budget.
 */
final class HeapStores implements LookupStores {
    /** Object headers, map node and array headers of one entry, roughly (64-bit JVM, compressed oops). */
    private static final int ENTRY_OVERHEAD = 96;

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
        long fitting = budgetBytes / ENTRY_OVERHEAD;
        return new PointStore((int) Math.min(Math.min(expectedEntries, fitting), 1 << 26));
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

    /** A key with a well-spread hash ({@link KeyBytes#hash}). */
    private static final class Key {
        final byte[] bytes;
        final int hash;

        Key(byte[] bytes) {
            this.bytes = bytes;
            this.hash = KeyBytes.hash(bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key && ((Key) o).hash == hash && Arrays.equals(((Key) o).bytes, bytes);
        }
    }

    private final class PointStore implements KeyValueStore {
        private final ConcurrentHashMap<Key, byte[]> entries;

        PointStore(int expectedEntries) {
            this.entries = new ConcurrentHashMap<>(Math.max(16, expectedEntries));
        }

        @Override
        public byte[] get(byte[] key) {
            return entries.get(new Key(key));
        }

        @Override
        public void put(byte[] key, byte[] value) {
            byte[] old = entries.put(new Key(key), value);
            account(old == null ? size(key, value) : value.length - old.length);
        }

        @Override
        public void delete(byte[] key) {
            byte[] old = entries.remove(new Key(key));
            if (old != null) {
                account(-size(key, old));
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
