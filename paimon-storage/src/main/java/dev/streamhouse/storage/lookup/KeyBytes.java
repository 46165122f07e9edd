package dev.streamhouse.storage.lookup;

/** Byte-array helpers of the lookup stores' keys. */
final class KeyBytes {
    private KeyBytes() {}

    static boolean startsWith(byte[] key, byte[] prefix) {
        if (key.length < prefix.length) {
            return false;
        }
        return java.util.Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** {@code a} followed by {@code b}. */
    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** {@code a} followed by the 8 big-endian bytes of {@code v}. */
    static byte[] concat(byte[] a, long v) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + 8);
        for (int i = 0; i < 8; i++) {
            out[a.length + i] = (byte) (v >>> (56 - 8 * i));
        }
        return out;
    }

    /**
     * A well-spread hash of a key's bytes (row encodings of nearby values differ in few bytes, which
     * {@code Arrays.hashCode} maps to few distinct values).
     */
    static int hash(byte[] key) {
        return hash(key, 0, key.length);
    }

    /** {@link #hash(byte[])} of {@code length} bytes of {@code bytes} from {@code offset}. */
    static int hash(byte[] bytes, int offset, int length) {
        long h = 0x9E3779B97F4A7C15L;
        for (int i = offset; i < offset + length; i++) {
            h = (h ^ (bytes[i] & 0xff)) * 0xBF58476D1CE4E5B9L;
        }
        h ^= h >>> 31;
        return (int) (h ^ (h >>> 32));
    }
}
