package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;

import java.util.EnumSet;
import java.util.Set;

/**
 * The order {@code max} and {@code min} compare non-null values by: numbers (FLOAT and DOUBLE as
 * {@link Float#compare}, so NaN is largest and -0.0 below 0.0), DATE, TIME, timestamps, strings and
 * binaries unsigned byte-wise (a prefix first), decimals by value.
 *
 * <p>Apache Paimon 1.3.1 accepts max and min on every type when the table is created, but has no order
 * for BOOLEAN and the nested types: it fails when two non-null values of such a column meet. So does
 * {@link #compare}.
 */
final class ValueOrder {
    private static final Set<DataTypeRoot> UNORDERED = EnumSet.of(DataTypeRoot.BOOLEAN, DataTypeRoot.ARRAY,
            DataTypeRoot.MULTISET, DataTypeRoot.MAP, DataTypeRoot.ROW, DataTypeRoot.VARIANT);

    private final ColumnFunction function;
    private final DataType type;

    ValueOrder(ColumnFunction function) {
        this.function = function;
        this.type = function.type();
    }

    /**
     * Negative, zero or positive as {@code a} sorts before, with or after {@code b} (both non-null).
     *
     * @throws IllegalArgumentException if the column's type has no order
     */
    int compare(Object a, Object b) {
        if (UNORDERED.contains(type.root())) {
            throw new IllegalArgumentException("Cannot compute " + function.identifier() + " of column '"
                    + function.column() + "': values of type " + type.asSQLString() + " have no order; choose "
                    + "another aggregate function for it (Apache Paimon fails here too)");
        }
        return InternalRowUtils.compare(a, b, type);
    }
}
