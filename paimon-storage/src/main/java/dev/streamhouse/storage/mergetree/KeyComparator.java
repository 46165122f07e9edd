package dev.streamhouse.storage.mergetree;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.io.Serializable;
import java.util.Comparator;

/**
 * Orders keys field by field by the format's natural order (docs/format.md §6.4): signed numbers,
 * unsigned-bytewise strings and binaries. Keys are NOT NULL, but NULLs (from statistics) sort first.
 * Serializable; compares through a {@link KeyRowComparator}, so nothing is boxed.
 */
public final class KeyComparator implements Comparator<InternalRow>, Serializable {
    private static final long serialVersionUID = 1L;

    private final RowType keyType;
    private transient volatile KeyRowComparator delegate;

    public KeyComparator(RowType keyType) {
        for (DataType t : keyType.fieldTypes()) {
            if (!InternalRowUtils.isOrderable(t)) {
                throw new IllegalArgumentException("Cannot order keys by a column of type " + t);
            }
        }
        this.keyType = keyType;
        this.delegate = new KeyRowComparator(keyType);
    }

    @Override
    public int compare(InternalRow a, InternalRow b) {
        KeyRowComparator d = delegate;
        if (d == null) {
            d = new KeyRowComparator(keyType);
            delegate = d;
        }
        return d.compare(a, b);
    }
}
