package dev.streamhouse.storage.stats;

import dev.streamhouse.storage.data.BinaryString;

/**
 * Truncates string statistics (docs/format.md §6.5): a minimum keeps its first N code points (still a lower
 * bound); a longer maximum keeps its first N code points with the last one incremented, trying
 * earlier positions when a code point cannot be incremented (still an upper bound).
 */
final class StringTruncation {
    private StringTruncation() {}

    static BinaryString truncateMin(BinaryString min, int n) {
        return min.prefixChars(n);
    }

    /** The rounded-up maximum, or null if no upper bound of at most N code points exists. */
    static BinaryString truncateMax(BinaryString max, int n) {
        if (max.numChars() <= n) {
            return max;
        }
        int[] cps = max.toString().codePoints().limit(n).toArray();
        for (int i = cps.length - 1; i >= 0; i--) {
            int next = cps[i] + 1;
            if (next >= Character.MIN_SURROGATE && next <= Character.MAX_SURROGATE) {
                next = Character.MAX_SURROGATE + 1;
            }
            if (Character.isValidCodePoint(next)) {
                StringBuilder sb = new StringBuilder();
                for (int j = 0; j < i; j++) {
                    sb.appendCodePoint(cps[j]);
                }
                sb.appendCodePoint(next);
                return BinaryString.fromString(sb.toString());
            }
        }
        return null;
    }
}
