package dev.streamhouse.storage.data.columnar;

import dev.streamhouse.storage.data.Decimal;

/**
 * BIGINT values, and unscaled compact DECIMAL values, in a {@code long[]}, written directly by readers
 * through {@link #values()}.
 */
public final class LongVector extends HeapVector {
    private final long[] values;

    public LongVector(int capacity) {
        super(capacity);
        this.values = new long[capacity];
    }

    /** The values, written directly by readers. */
    public long[] values() {
        return values;
    }

    public void set(int rowId, long value) {
        values[rowId] = value;
    }

    @Override
    public long getLong(int rowId) {
        return values[rowId];
    }

    /** Compact decimals (precision up to 18) are held as their unscaled longs. */
    @Override
    public Decimal getDecimal(int rowId, int precision, int scale) {
        return Decimal.fromUnscaledLong(values[rowId], precision, scale);
    }
}
