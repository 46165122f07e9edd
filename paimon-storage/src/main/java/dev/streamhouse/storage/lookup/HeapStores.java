package dev.streamhouse.storage.lookup;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.BiConsumer;

/** {@link LookupStores} on the heap: sorted concurrent maps of byte arrays. */
final class HeapStores implements LookupStores {

    @Override
    public KeyValueStore open(String name) {
        return new HeapStore();
    }

    @Override
    public long diskBytes() {
        return 0;
    }

    @Override
    public void close() {}

    private static final class HeapStore implements KeyValueStore {
        private final ConcurrentSkipListMap<byte[], byte[]> entries = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);

        @Override
        public byte[] get(byte[] key) {
            return entries.get(key);
        }

        @Override
        public void put(byte[] key, byte[] value) {
            entries.put(key, value);
        }

        @Override
        public void delete(byte[] key) {
            entries.remove(key);
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
