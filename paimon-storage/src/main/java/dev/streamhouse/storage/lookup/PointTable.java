package dev.streamhouse.storage.lookup;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The heap map of a point store: open addressing over one array of entries, each entry a single byte
 * array {@code [int keyLength][key][value]}, so a probe touches the slot and one array (key and value
 * side by side) instead of a map node, a key object, the key and the value. Writers are serialized
 * (synchronized); readers take no lock: entries are immutable, a slot only ever changes from empty to
 * an entry or from one entry to another (a removed key leaves a tombstone), and a resize publishes a
 * new array through a volatile field. A reader compares the whole key, so it never mistakes one key's
 * entry for another's.
 */
final class PointTable {
    private static final byte[] TOMBSTONE = new byte[0];
    /** Slot reads and writes with acquire/release order, so a reader sees an entry's bytes complete. */
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(byte[][].class);
    private static final float MAX_LOAD = 0.6f;

    private volatile byte[][] slots;
    /** Slots that are not empty (live entries and tombstones). */
    private int used;
    private int live;

    PointTable(int expectedEntries) {
        int size = Integer.highestOneBit(Math.max(16, (int) Math.min(1 << 30, expectedEntries / MAX_LOAD)) * 2 - 1);
        this.slots = new byte[size][];
    }

    /** The value of {@code key}, or null. */
    byte[] get(byte[] key, int hash) {
        byte[][] table = slots;
        int mask = table.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            byte[] entry = (byte[]) SLOT.getAcquire(table, i);
            if (entry == null) {
                return null;
            }
            if (entry != TOMBSTONE && holds(entry, key)) {
                return Arrays.copyOfRange(entry, 4 + key.length, entry.length);
            }
        }
    }

    /** Puts the value; returns the bytes of the value it replaced, or -1 if the key was new. */
    synchronized int put(byte[] key, int hash, byte[] value) {
        if ((used + 1) > slots.length * MAX_LOAD) {
            resize();
        }
        byte[] entry = new byte[4 + key.length + value.length];
        entry[0] = (byte) (key.length >>> 24);
        entry[1] = (byte) (key.length >>> 16);
        entry[2] = (byte) (key.length >>> 8);
        entry[3] = (byte) key.length;
        System.arraycopy(key, 0, entry, 4, key.length);
        System.arraycopy(value, 0, entry, 4 + key.length, value.length);
        byte[][] table = slots;
        int mask = table.length - 1;
        int free = -1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            byte[] current = table[i];
            if (current == null) {
                if (free < 0) {
                    free = i;
                    used++;
                }
                SLOT.setRelease(table, free, entry);
                live++;
                return -1;
            }
            if (current == TOMBSTONE) {
                if (free < 0) {
                    free = i;
                }
            } else if (holds(current, key)) {
                SLOT.setRelease(table, i, entry);
                return current.length - 4 - key.length;
            }
        }
    }

    /** Removes the key; returns the bytes of its value, or -1 if it was absent. */
    synchronized int remove(byte[] key, int hash) {
        byte[][] table = slots;
        int mask = table.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            byte[] current = table[i];
            if (current == null) {
                return -1;
            }
            if (current != TOMBSTONE && holds(current, key)) {
                SLOT.setRelease(table, i, TOMBSTONE);
                live--;
                return current.length - 4 - key.length;
            }
        }
    }

    synchronized void clear() {
        slots = new byte[16][];
        used = 0;
        live = 0;
    }

    /** Rehashes the live entries into a table sized for them (twice as large when mostly live). */
    private void resize() {
        byte[][] old = slots;
        int size = live * 2 > old.length * MAX_LOAD ? old.length * 2 : old.length;
        byte[][] table = new byte[size][];
        int mask = size - 1;
        for (byte[] entry : old) {
            if (entry == null || entry == TOMBSTONE) {
                continue;
            }
            int keyLength = keyLength(entry);
            int i = KeyBytes.hash(entry, 4, keyLength) & mask;
            while (table[i] != null) {
                i = (i + 1) & mask;
            }
            table[i] = entry;
        }
        used = live;
        slots = table;
    }

    private static int keyLength(byte[] entry) {
        return ((entry[0] & 0xff) << 24) | ((entry[1] & 0xff) << 16) | ((entry[2] & 0xff) << 8) | (entry[3] & 0xff);
    }

    private static boolean holds(byte[] entry, byte[] key) {
        return keyLength(entry) == key.length && Arrays.equals(entry, 4, 4 + key.length, key, 0, key.length);
    }
}
