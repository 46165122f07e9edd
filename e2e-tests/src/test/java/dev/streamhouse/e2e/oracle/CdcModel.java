package dev.streamhouse.e2e.oracle;

import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Seeded, complete CDC for a primary-key table of rows {@code (dt STRING, id INT, name STRING,
 * amount BIGINT)} keyed by (dt, id) over two partitions: +I for a new key, then -U/+U or (one time in
 * four) -D for a live one, and the table those changes leave ({@link #live()}). Every new version gets
 * a fresh, increasing number used as name suffix and amount.
 */
public final class CdcModel {
    private final Random random;
    private final int idsPerPartition;
    /** The expected table: key "dt/id" → live row. */
    private final Map<String, CanonicalRow> live = new TreeMap<>();
    private long version;

    public CdcModel(long seed, int idsPerPartition) {
        this.random = new Random(seed);
        this.idsPerPartition = idsPerPartition;
    }

    /** The next {@code size} changes, applied to {@link #live()}. */
    public List<CanonicalRow> batch(int size) {
        List<CanonicalRow> rows = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            String dt = randomPartition();
            int id = random.nextInt(idsPerPartition);
            String key = dt + "/" + id;
            CanonicalRow old = live.get(key);
            long v = nextVersion();
            CanonicalRow next = CanonicalRow.ofKind(Kind.INSERT, dt, id, "name-" + v, v);
            if (old == null) {
                rows.add(next);
                live.put(key, next);
            } else if (random.nextInt(4) == 0) {
                rows.add(old.withKind(Kind.DELETE));
                live.remove(key);
            } else {
                rows.add(old.withKind(Kind.UPDATE_BEFORE));
                next = next.withKind(Kind.UPDATE_AFTER);
                rows.add(next);
                live.put(key, next);
            }
        }
        return rows;
    }

    /** One of the two partition values, at random. */
    public String randomPartition() {
        return "2026-12-0" + (1 + random.nextInt(2));
    }

    /** A fresh version number. */
    public long nextVersion() {
        return ++version;
    }

    /** The expected live rows by key "dt/id"; callers may change it (e.g. after an overwrite). */
    public Map<String, CanonicalRow> live() {
        return live;
    }
}
