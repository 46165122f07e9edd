package dev.streamhouse.storage.utils;

/**
 * MurmurHash3 x86_32, seed 42, as the table format uses: {@link #hashBytesByWords} over whole
 * little-endian 4-byte words for bucket assignment and hash indexes (BinaryRows are always a multiple
 * of 8 bytes, so there is no tail step), {@link #hashBytes} over any length for string hash codes.
 */
public final class MurmurHash {
    public static final int DEFAULT_SEED = 42;

    private static final int C1 = 0xcc9e2d51;
    private static final int C2 = 0x1b873593;

    private MurmurHash() {}

    public static int hashBytesByWords(byte[] bytes, int offset, int length) {
        return hashBytesByWords(bytes, offset, length, DEFAULT_SEED);
    }

    public static int hashBytesByWords(byte[] bytes, int offset, int length, int seed) {
        if ((length & 3) != 0) {
            throw new IllegalArgumentException("length must be a multiple of 4, got " + length);
        }
        int h = seed;
        for (int i = 0; i < length; i += 4) {
            int p = offset + i;
            int k = (bytes[p] & 0xFF)
                    | (bytes[p + 1] & 0xFF) << 8
                    | (bytes[p + 2] & 0xFF) << 16
                    | (bytes[p + 3] & 0xFF) << 24;
            k *= C1;
            k = Integer.rotateLeft(k, 15);
            k *= C2;
            h ^= k;
            h = Integer.rotateLeft(h, 13);
            h = h * 5 + 0xe6546b64;
        }
        h ^= length;
        return fmix(h);
    }

    /**
     * MurmurHash3 x86_32 of any number of bytes, seed 42: whole little-endian words, then each
     * remaining byte on its own (sign-extended), as Paimon hashes strings ({@code BinaryString.hashCode}).
     */
    public static int hashBytes(byte[] bytes, int offset, int length) {
        int words = length - (length & 3);
        int h = DEFAULT_SEED;
        for (int i = 0; i < words; i += 4) {
            int p = offset + i;
            h = mixH1(h, mixK1((bytes[p] & 0xFF)
                    | (bytes[p + 1] & 0xFF) << 8
                    | (bytes[p + 2] & 0xFF) << 16
                    | (bytes[p + 3] & 0xFF) << 24));
        }
        for (int i = words; i < length; i++) {
            h = mixH1(h, mixK1(bytes[offset + i]));
        }
        return fmix(h ^ length);
    }

    private static int mixK1(int k) {
        k *= C1;
        k = Integer.rotateLeft(k, 15);
        return k * C2;
    }

    private static int mixH1(int h, int k) {
        h ^= k;
        h = Integer.rotateLeft(h, 13);
        return h * 5 + 0xe6546b64;
    }

    /** MurmurHash3's 32-bit finalizer: every input bit affects every output bit. */
    public static int fmix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }
}
