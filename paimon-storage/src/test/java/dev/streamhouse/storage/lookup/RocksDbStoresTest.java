package dev.streamhouse.storage.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RocksDbStoresTest {
    private static final int KEYS = 200_000;

    @TempDir
    Path dir;

    /** Keys in an order unrelated to their bytes, as a load from several buckets writes them. */
    private static byte[] key(int i) {
        return String.format("key-%08d", (int) ((i * 2_654_435_761L) % KEYS)).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i, String version) {
        return (version + "-value-of-" + i + "-padding-padding-padding").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aBulkLoadFlushesManyFilesAndFinishingItLeavesOneSortedRun() {
        try (RocksDbStores stores = new RocksDbStores(dir.resolve("cache"), 8L << 20)) {
            KeyValueStore store = stores.open("rows", false, KEYS);
            for (int i = 0; i < KEYS; i++) {
                store.put(key(i), value(i, "v1"));
            }
            // 200,000 entries of about 55 bytes do not fit one 2 MiB write buffer: the load flushed files,
            // and none was compacted (bulk mode).
            assertThat(stores.level0Files(store)).as("level-0 files after the load").isGreaterThan(1);

            stores.finishLoad();

            assertThat(stores.level0Files(store)).as("level-0 files after finishLoad").isZero();
            for (int i = 0; i < KEYS; i++) {
                assertThat(store.get(key(i))).as("value of key %d", i).isEqualTo(value(i, "v1"));
            }
            assertThat(store.get("absent".getBytes(StandardCharsets.UTF_8))).isNull();
        }
    }

    @Test
    void changesAfterTheLoadAreReadAndCompactedAutomatically() {
        try (RocksDbStores stores = new RocksDbStores(dir.resolve("cache"), 8L << 20)) {
            KeyValueStore store = stores.open("rows", true, KEYS);
            for (int i = 0; i < KEYS; i++) {
                store.put(key(i), value(i, "v1"));
            }
            stores.finishLoad();
            // Enough changes for several flushes: with automatic compaction back on, level 0 does not
            // keep growing, and every change is visible.
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < KEYS; i++) {
                    if (i % 10 == 0) {
                        store.delete(key(i));
                    } else {
                        store.put(key(i), value(i, "v" + (round + 2)));
                    }
                }
            }
            for (int i = 0; i < KEYS; i++) {
                assertThat(store.get(key(i))).as("value of key %d", i).isEqualTo(i % 10 == 0 ? null : value(i, "v4"));
            }
            byte[] prefix = "key-0000001".getBytes(StandardCharsets.UTF_8);
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                String k = new String(key(i), StandardCharsets.UTF_8);
                if (i % 10 != 0 && k.startsWith("key-0000001")) {
                    expected.add(k);
                }
            }
            expected.sort(null);
            List<String> found = new ArrayList<>();
            store.scanPrefix(prefix, (k, v) -> found.add(new String(k, StandardCharsets.UTF_8)));
            assertThat(expected).hasSizeGreaterThan(3);
            assertThat(found).as("keys with the prefix, in order").isEqualTo(expected);
            assertThat(stores.level0Files(store)).as("level-0 files once compaction is automatic again")
                    .isLessThan(20);
        }
        assertThat(Files.exists(dir.resolve("cache"))).as("directory deleted on close").isFalse();
    }
}
