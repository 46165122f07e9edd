package dev.streamhouse.storage.mergetree;

import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.RowType;

import java.io.Serializable;
import java.util.Comparator;

/**
 * Orders keys field by field by the format's natural order (FORMAT §6.4): signed numbers,
 * unsigned-bytewise strings and binaries. Keys are NOT NULL, but NULLs (from statistics) sort first.
 */
public final class KeyComparator implements Comparator<InternalRow>, Serializable {
    private static final long serialVersionUID = 1L;

    private final DataType[] types;
    private transient volatile FieldGetter[] getters;

    public KeyComparator(RowType keyType) {
        this.types = keyType.fieldTypes().toArray(new DataType[0]);
        for (DataType t : types) {
            if (!InternalRowUtils.isOrderable(t)) {
                throw new IllegalArgumentException("Cannot order keys by a column of type " + t);
            }
        }
    }

    private FieldGetter[] getters() {
        FieldGetter[] g = getters;
        if (g == null) {
            // Fill a local array first: another thread may read the field concurrently.
            g = new FieldGetter[types.length];
            for (int i = 0; i < types.length; i++) {
                g[i] = InternalRowUtils.fieldGetter(types[i], i);
            }
            getters = g;
        }
        return g;
    }

    @Override
    public int compare(InternalRow a, InternalRow b) {
        FieldGetter[] g = getters();
        for (int i = 0; i < g.length; i++) {
            Object x = g[i].get(a);
            Object y = g[i].get(b);
            if (x == null || y == null) {
                if (x != y) {
                    return x == null ? -1 : 1;
                }
                continue;
            }
            int c = InternalRowUtils.compare(x, y, types[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
