package dev.streamhouse.storage.deletionvectors;

import dev.streamhouse.storage.read.DeletionVector;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;

import java.util.Arrays;

/**
 * The deleted row positions of one data file (docs/format.md §9.2), immutable. Positions are 0-based row
 * numbers in file order. They are kept as 32-bit Roaring bitmaps, one per value of the high 32 bits
 * of a position (the shape of the 64-bit stored form); every position of a real data file is below
 * 2^31 and lives in the first. How a vector is stored is {@link DeletionVectorSerializer}'s business.
 *
 * <p>Made with a {@link Builder}, the mutable form a writer (compaction marking old versions deleted)
 * collects positions in. Thread-safe.
 */
public final class BitmapDeletionVector implements DeletionVector {
    /** The largest high word a position may have: that of Iceberg's and Paimon's 64-bit bitmaps. */
    static final int MAX_HIGH = Integer.MAX_VALUE - 1;

    private static final BitmapDeletionVector EMPTY = new BitmapDeletionVector(new RoaringBitmap[0]);

    /** {@code bitmaps[h]} holds the low 32 bits of the positions whose high 32 bits are h; none is null. */
    private final RoaringBitmap[] bitmaps;
    private final long cardinality;

    private BitmapDeletionVector(RoaringBitmap[] bitmaps) {
        this.bitmaps = bitmaps;
        long n = 0;
        for (RoaringBitmap b : bitmaps) {
            n += b.getLongCardinality();
        }
        this.cardinality = n;
    }

    /** A vector that deletes nothing. */
    public static BitmapDeletionVector empty() {
        return EMPTY;
    }

    /** A vector of exactly these positions (each >= 0). */
    public static BitmapDeletionVector of(long... positions) {
        Builder b = builder();
        for (long p : positions) {
            b.delete(p);
        }
        return b.build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder that starts with this vector's positions. */
    public Builder toBuilder() {
        return new Builder().merge(this);
    }

    @Override
    public boolean isDeleted(long position) {
        if (position < 0) {
            return false;
        }
        long high = position >>> 32;
        return high < bitmaps.length && bitmaps[(int) high].contains((int) position);
    }

    /** Walks the bitmap from {@code from} on, instead of a lookup per position. */
    @Override
    public int deletedIn(long from, int count, int[] out) {
        if (count <= 0) {
            return 0;
        }
        long high = from >>> 32;
        if (from < 0 || high != (from + count - 1) >>> 32) {
            return DeletionVector.super.deletedIn(from, count, out);
        }
        if (high >= bitmaps.length) {
            return 0;
        }
        // Within one high word: the low 32 bits, which the bitmap orders as unsigned ints.
        long low = from & 0xFFFFFFFFL;
        PeekableIntIterator it = bitmaps[(int) high].getIntIterator();
        it.advanceIfNeeded((int) low);
        int k = 0;
        while (it.hasNext()) {
            long offset = Integer.toUnsignedLong(it.next()) - low;
            if (offset >= count) {
                break;
            }
            out[k++] = (int) offset;
        }
        return k;
    }

    /** How many positions are deleted. */
    public long cardinality() {
        return cardinality;
    }

    public boolean isEmpty() {
        return cardinality == 0;
    }

    /** Whether every position is below 2^31, as the 32-bit stored form requires. */
    public boolean fitsInt32() {
        for (int h = 1; h < bitmaps.length; h++) {
            if (!bitmaps[h].isEmpty()) {
                return false;
            }
        }
        return bitmaps.length == 0 || bitmaps[0].isEmpty() || bitmaps[0].last() >= 0;
    }

    /** The bitmaps by high word (shared, never to be modified): for the serializer. */
    RoaringBitmap[] bitmaps() {
        return bitmaps;
    }

    /** A vector over {@code bitmaps}, indexed by high word, which it takes over. */
    static BitmapDeletionVector ofBitmaps(RoaringBitmap[] bitmaps) {
        return new BitmapDeletionVector(bitmaps);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BitmapDeletionVector)) {
            return false;
        }
        BitmapDeletionVector other = (BitmapDeletionVector) o;
        if (cardinality != other.cardinality) {
            return false;
        }
        int n = Math.max(bitmaps.length, other.bitmaps.length);
        for (int h = 0; h < n; h++) {
            boolean mine = h < bitmaps.length && !bitmaps[h].isEmpty();
            boolean theirs = h < other.bitmaps.length && !other.bitmaps[h].isEmpty();
            if (mine != theirs || (mine && !bitmaps[h].equals(other.bitmaps[h]))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int hash = Long.hashCode(cardinality);
        for (int h = 0; h < bitmaps.length; h++) {
            if (!bitmaps[h].isEmpty()) {
                hash = 31 * hash + h * 17 + bitmaps[h].hashCode();
            }
        }
        return hash;
    }

    @Override
    public String toString() {
        if (cardinality > 20) {
            return "BitmapDeletionVector{" + cardinality + " deleted positions}";
        }
        StringBuilder s = new StringBuilder("BitmapDeletionVector{");
        String sep = "";
        for (int h = 0; h < bitmaps.length; h++) {
            for (int low : bitmaps[h]) {
                s.append(sep).append(((long) h << 32) | Integer.toUnsignedLong(low));
                sep = ",";
            }
        }
        return s.append('}').toString();
    }

    /**
     * Collects deleted positions; {@link #build()} takes a snapshot, after which the builder can go on.
     * Not thread-safe.
     */
    public static final class Builder {
        private RoaringBitmap[] bitmaps = new RoaringBitmap[0];

        private Builder() {}

        /**
         * Marks {@code position} deleted.
         *
         * @return whether it was not deleted before
         * @throws IllegalArgumentException if the position is negative or beyond what 64-bit bitmaps hold
         */
        public boolean delete(long position) {
            if (position < 0 || (position >>> 32) > MAX_HIGH) {
                throw new IllegalArgumentException("Cannot delete row position " + position
                        + ": positions are 0-based row numbers of a data file");
            }
            return bitmap((int) (position >>> 32)).checkedAdd((int) position);
        }

        /** Whether {@code position} is marked deleted so far. */
        public boolean isDeleted(long position) {
            if (position < 0) {
                return false;
            }
            long high = position >>> 32;
            return high < bitmaps.length && bitmaps[(int) high].contains((int) position);
        }

        /** Marks every position of {@code other} deleted too. */
        public Builder merge(BitmapDeletionVector other) {
            RoaringBitmap[] theirs = other.bitmaps;
            for (int h = 0; h < theirs.length; h++) {
                if (!theirs[h].isEmpty()) {
                    bitmap(h).or(theirs[h]);
                }
            }
            return this;
        }

        /** How many positions are marked deleted so far. */
        public long cardinality() {
            long n = 0;
            for (RoaringBitmap b : bitmaps) {
                n += b.getLongCardinality();
            }
            return n;
        }

        /** The positions marked so far, as an immutable vector. */
        public BitmapDeletionVector build() {
            int n = bitmaps.length;
            while (n > 0 && bitmaps[n - 1].isEmpty()) {
                n--;
            }
            if (n == 0) {
                return EMPTY;
            }
            RoaringBitmap[] copy = new RoaringBitmap[n];
            for (int h = 0; h < n; h++) {
                copy[h] = bitmaps[h].clone();
                copy[h].runOptimize();
            }
            return new BitmapDeletionVector(copy);
        }

        private RoaringBitmap bitmap(int high) {
            if (high >= bitmaps.length) {
                int old = bitmaps.length;
                bitmaps = Arrays.copyOf(bitmaps, high + 1);
                for (int h = old; h <= high; h++) {
                    bitmaps[h] = new RoaringBitmap();
                }
            }
            return bitmaps[high];
        }
    }
}
