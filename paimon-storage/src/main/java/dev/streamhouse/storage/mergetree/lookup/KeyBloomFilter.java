package dev.streamhouse.storage.mergetree.lookup;

/**
 * A Bloom filter over 64-bit key hashes ({@link KeyHasher}), sized for an expected number of keys and a
 * false-positive rate: {@code m = -n ln(p) / ln(2)^2} bits and {@code k = m/n ln(2)} probes, derived by
 * double hashing from the hash and its halves swapped. {@link #mightContain} never answers false for an
 * added hash. Not thread-safe while being filled; safe to share once filled.
 */
final class KeyBloomFilter {
    private static final long MAX_BITS = (long) (Integer.MAX_VALUE - 8) * Long.SIZE;

    private final long[] words;
    private final long bits;
    private final int probes;

    private KeyBloomFilter(long bits, int probes) {
        this.words = new long[(int) ((bits + Long.SIZE - 1) / Long.SIZE)];
        this.bits = (long) words.length * Long.SIZE;
        this.probes = probes;
    }

    /**
     * @param expectedKeys how many keys will be added (more only raise the false-positive rate)
     * @param falsePositiveRate in (0, 1)
     */
    static KeyBloomFilter forExpectedKeys(long expectedKeys, double falsePositiveRate) {
        if (!(falsePositiveRate > 0 && falsePositiveRate < 1)) {
            throw new IllegalArgumentException("Cannot size a bloom filter for false-positive rate "
                    + falsePositiveRate + ": it must be between 0 and 1 (exclusive)");
        }
        long n = Math.max(1, expectedKeys);
        double ln2 = Math.log(2);
        long bits = (long) Math.ceil(-n * Math.log(falsePositiveRate) / (ln2 * ln2));
        bits = Math.min(MAX_BITS, Math.max(Long.SIZE, bits));
        int probes = (int) Math.max(1, Math.min(30, Math.round((double) bits / n * ln2)));
        return new KeyBloomFilter(bits, probes);
    }

    void add(long hash) {
        long step = step(hash);
        for (int i = 0; i < probes; i++) {
            long bit = Long.remainderUnsigned(hash + i * step, bits);
            words[(int) (bit >>> 6)] |= 1L << bit;
        }
    }

    boolean mightContain(long hash) {
        long step = step(hash);
        for (int i = 0; i < probes; i++) {
            long bit = Long.remainderUnsigned(hash + i * step, bits);
            if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** The second hash of double hashing: the halves swapped, odd, so never a
     * multiple of the (even) bit count and the probes do not all land on one bit. */
    private static long step(long hash) {
        return Long.rotateLeft(hash, 32) | 1L;
    }

    /** Heap held by the bit array. */
    long heapBytes() {
        return (long) words.length * Long.BYTES;
    }
}
