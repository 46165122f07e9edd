package dev.streamhouse.storage.lookup;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link PointTable}: a map model under random puts and removes, and readers during writes. */
class PointTableTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] get(PointTable t, byte[] key) {
        return t.get(key, KeyBytes.hash(key));
    }

    @Test
    void behavesLikeAMapUnderRandomPutsAndRemoves() {
        PointTable table = new PointTable(4);
        Map<String, String> model = new HashMap<>();
        Random random = new Random(42);
        for (int step = 0; step < 200_000; step++) {
            String key = "k" + random.nextInt(5000);
            byte[] k = bytes(key);
            if (random.nextInt(3) == 0) {
                int removed = table.remove(k, KeyBytes.hash(k));
                String old = model.remove(key);
                assertThat(removed).isEqualTo(old == null ? -1 : old.length());
            } else {
                String value = "v" + step;
                int replaced = table.put(k, KeyBytes.hash(k), bytes(value));
                String old = model.put(key, value);
                assertThat(replaced).isEqualTo(old == null ? -1 : old.length());
            }
        }
        for (int i = 0; i < 5000; i++) {
            String key = "k" + i;
            byte[] found = get(table, bytes(key));
            String expected = model.get(key);
            assertThat(found == null ? null : new String(found, StandardCharsets.UTF_8)).as(key).isEqualTo(expected);
        }
        assertThat(get(table, bytes("absent"))).isNull();
        assertThat(get(table, new byte[0])).isNull();
    }

    @Test
    void readersDuringWritesSeeEachKeysOldOrNewValueNeverAnotherKeys() throws Exception {
        PointTable table = new PointTable(16);
        int keys = 2000;
        for (int i = 0; i < keys; i++) {
            table.put(bytes("k" + i), KeyBytes.hash(bytes("k" + i)), bytes("k" + i + "=0"));
        }
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> wrong = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            Random random = new Random(7);
            while (!done.get()) {
                int i = random.nextInt(keys);
                byte[] v = get(table, bytes("k" + i));
                String s = v == null ? null : new String(v, StandardCharsets.UTF_8);
                if (s == null || !s.startsWith("k" + i + "=")) {
                    wrong.compareAndSet(null, "k" + i + " -> " + s);
                }
            }
        });
        reader.start();
        for (int round = 1; round <= 20; round++) {
            for (int i = 0; i < keys; i++) {
                table.put(bytes("k" + i), KeyBytes.hash(bytes("k" + i)), bytes("k" + i + "=" + round));
            }
            for (int i = 0; i < 200; i++) {
                byte[] extra = bytes("extra" + round + "-" + i);
                table.put(extra, KeyBytes.hash(extra), extra);
            }
        }
        done.set(true);
        reader.join();
        assertThat(wrong.get()).isNull();
    }
}
