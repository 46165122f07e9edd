package dev.streamhouse.storage.stats;

import dev.streamhouse.storage.data.BinaryRow;

import java.util.Arrays;
import java.util.Objects;

/**
 * Min values, max values and null counts of some columns (docs/format.md §5.2, §6.5). Min/max fields are
 * null where unknown; {@code nullCounts} is null when unknown as a whole and holds null elements where
 * unknown per column.
 */
public final class SimpleStats implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    /** Statistics of zero columns. */
    public static final SimpleStats EMPTY = new SimpleStats(BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, new Long[0]);

    private final BinaryRow minValues;
    private final BinaryRow maxValues;
    private final Long[] nullCounts;

    public SimpleStats(BinaryRow minValues, BinaryRow maxValues, Long[] nullCounts) {
        this.minValues = Objects.requireNonNull(minValues, "minValues");
        this.maxValues = Objects.requireNonNull(maxValues, "maxValues");
        this.nullCounts = nullCounts;
    }

    public BinaryRow minValues() {
        return minValues;
    }

    public BinaryRow maxValues() {
        return maxValues;
    }

    /** Per-column null counts (elements may be null); null if unknown. */
    public Long[] nullCounts() {
        return nullCounts;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SimpleStats)) {
            return false;
        }
        SimpleStats that = (SimpleStats) o;
        return minValues.equals(that.minValues)
                && maxValues.equals(that.maxValues)
                && Arrays.equals(nullCounts, that.nullCounts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(minValues, maxValues, Arrays.hashCode(nullCounts));
    }

    @Override
    public String toString() {
        return "SimpleStats{min=" + minValues + ", max=" + maxValues + ", nulls=" + Arrays.toString(nullCounts) + "}";
    }
}
