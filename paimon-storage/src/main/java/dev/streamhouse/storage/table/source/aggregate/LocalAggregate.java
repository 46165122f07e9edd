package dev.streamhouse.storage.table.source.aggregate;

import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.io.Serializable;
import java.util.Set;

/**
 * One aggregate a read computes over the rows of each split it reads, as the local (first) phase of a
 * two-phase aggregation: an engine merges the splits' partial results in its final phase. The
 * semantics are SQL's as Flink computes them: {@code COUNT(*)} counts rows, {@code COUNT(x)} non-null
 * values; {@code SUM(x)} is NULL without a non-null value and {@code SUM0(x)} 0; sums of integral types
 * wrap around in the column's type, as Flink's do; {@code MIN}/{@code MAX} are NULL without a non-null
 * value, a value replaces the current one only when strictly smaller (larger), so a NaN never does;
 * {@code AVG(x)} is an {@link Kind#AVG_SUM} and a {@code COUNT(x)}.
 *
 * @param field the aggregated column's position in the read row, or -1 for {@code COUNT(*)}
 */
public record LocalAggregate(Kind kind, int field) implements Serializable {

    /** The aggregate functions a read computes. */
    public enum Kind {
        COUNT_STAR, COUNT, SUM, SUM0, MIN, MAX,
        /**
         * The sum of an {@code AVG} (whose count is a {@link #COUNT}): 0 without values, in BIGINT for
         * integral columns (no wrapping within the column's type) and DOUBLE for FLOAT and DOUBLE ones.
         */
        AVG_SUM
    }

    private static final Set<DataTypeRoot> NUMERIC = Set.of(DataTypeRoot.TINYINT, DataTypeRoot.SMALLINT,
            DataTypeRoot.INTEGER, DataTypeRoot.BIGINT, DataTypeRoot.FLOAT, DataTypeRoot.DOUBLE);

    public LocalAggregate {
        if ((kind == Kind.COUNT_STAR) != (field < 0)) {
            throw new IllegalArgumentException("Cannot aggregate " + kind + " of field " + field
                    + ": COUNT(*) and only it has no field");
        }
    }

    public static LocalAggregate countStar() {
        return new LocalAggregate(Kind.COUNT_STAR, -1);
    }

    /**
     * Whether a read computes {@code kind} over a column of {@code type}: counts over any type, sums
     * over TINYINT to DOUBLE, MIN and MAX also over DATE. (DECIMAL sums, whose overflow rules are the
     * engine's, and the orders of strings and timestamps are left to the engine.)
     */
    public static boolean supports(Kind kind, DataType type) {
        switch (kind) {
            case COUNT_STAR:
            case COUNT:
                return true;
            case SUM:
            case SUM0:
            case AVG_SUM:
                return NUMERIC.contains(type.root());
            default:
                return NUMERIC.contains(type.root()) || type.root() == DataTypeRoot.DATE;
        }
    }

    /** The type of this aggregate's result over rows of {@code readType}. */
    public DataType resultType(RowType readType) {
        switch (kind) {
            case COUNT_STAR:
            case COUNT:
                return DataTypes.BIGINT().notNull();
            case SUM0:
                return readType.typeAt(field).notNull();
            case AVG_SUM: {
                DataTypeRoot root = readType.typeAt(field).root();
                return root == DataTypeRoot.FLOAT || root == DataTypeRoot.DOUBLE
                        ? DataTypes.DOUBLE().notNull() : DataTypes.BIGINT().notNull();
            }
            default:
                return readType.typeAt(field).nullable();
        }
    }
}
