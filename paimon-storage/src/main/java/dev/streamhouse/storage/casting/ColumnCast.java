package dev.streamhouse.storage.casting;

import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * How a column's values, written to a data file with an older type, are read as the column's current
 * type after {@code ALTER TABLE ... MODIFY}. Data files keep the type of the schema they were written
 * with (docs/format.md §3, §5.4 {@code _SCHEMA_ID}); readers ask the file for that type and convert.
 *
 * <p>The allowed changes (nullability is ignored here; it has its own rules) are exactly the ones whose
 * conversion is exact and order-preserving, so old values keep their meaning and old file statistics
 * (min/max) stay valid bounds after conversion:
 * <ul>
 *   <li>TINYINT → SMALLINT → INT → BIGINT (any step up);
 *   <li>TINYINT, SMALLINT, INT → DOUBLE; TINYINT, SMALLINT → FLOAT; FLOAT → DOUBLE;
 *   <li>TINYINT, SMALLINT, INT, BIGINT → DECIMAL(p, s) with at least 3, 5, 10, 19 integer digits
 *       ({@code p - s});
 *   <li>DECIMAL(p, s) → DECIMAL(p', s) with p' ≥ p (same scale);
 *   <li>CHAR(n), VARCHAR(n) → VARCHAR(m) with m ≥ n (incl. STRING);
 *   <li>BINARY(n), VARBINARY(n) → VARBINARY(m) with m ≥ n (incl. BYTES);
 *   <li>TIMESTAMP(p) → TIMESTAMP(p') and TIMESTAMP(p) WITH LOCAL TIME ZONE → the same with p' ≥ p;
 *   <li>ROW&lt;f1..fn&gt; → ROW&lt;f1..fn, g1..gk&gt;: nullable fields appended, the existing fields
 *       unchanged (same names and types, compared without field ids). Old files read the new fields
 *       as NULL.
 * </ul>
 * Everything else (narrowing, BIGINT → DOUBLE which loses digits, numbers ↔ strings, scale changes,
 * changes inside ARRAY/MAP/MULTISET, ...) is refused with the reason from {@link #refusal}.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ColumnCast {
    private final DataType from;
    private final DataType to;
    /** Converts an internal value of {@code from} to one of {@code to}; null when values stay as read. */
    private final UnaryOperator<Object> converter;
    private final boolean readAsTarget;

    private ColumnCast(DataType from, DataType to, UnaryOperator<Object> converter, boolean readAsTarget) {
        this.from = from;
        this.to = to;
        this.converter = converter;
        this.readAsTarget = readAsTarget;
    }

    /**
     * Why values of type {@code from} cannot be read as {@code to}, or empty if they can (also when the
     * types are equal ignoring nullability).
     */
    public static Optional<String> refusal(DataType from, DataType to) {
        return Optional.ofNullable(check(from, to));
    }

    /**
     * The cast from {@code from} to {@code to}.
     *
     * @throws IllegalArgumentException if the change is not allowed; the message is the reason
     */
    public static ColumnCast of(DataType from, DataType to) {
        String why = check(from, to);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        if (from.equalsIgnoreNullable(to)) {
            return new ColumnCast(from, to, null, false);
        }
        if (from.root() == DataTypeRoot.ROW) {
            return new ColumnCast(from, to, null, true);
        }
        return new ColumnCast(from, to, converter(from, to), false);
    }

    public DataType from() {
        return from;
    }

    public DataType to() {
        return to;
    }

    /**
     * The type to ask the data file for (nullable): the written type, or for a ROW with appended fields
     * the new type (the file reader matches nested fields by name and reads missing ones as NULL).
     */
    public DataType fileReadType() {
        return (readAsTarget ? to : from).nullable();
    }

    /** Whether values read with {@link #fileReadType()} must be converted ({@link #apply}). */
    public boolean convertsValues() {
        return converter != null;
    }

    /** Converts a non-null internal value of the file read type to the new type. */
    public Object apply(Object value) {
        return converter == null ? value : converter.apply(value);
    }

    @Override
    public String toString() {
        return "ColumnCast{" + from + " -> " + to + "}";
    }

    // ---- rules ----

    private static String check(DataType from, DataType to) {
        if (from.equalsIgnoreNullable(to)) {
            return null;
        }
        DataTypeRoot f = from.root();
        DataTypeRoot t = to.root();
        if (isIntegral(f)) {
            return checkFromIntegral(from, to);
        }
        switch (f) {
            case FLOAT:
                return t == DataTypeRoot.DOUBLE ? null : "FLOAT can only become DOUBLE";
            case DECIMAL:
                return checkDecimal((DecimalType) from, to);
            case CHAR:
            case VARCHAR:
                return checkLength(from, to, DataTypeRoot.VARCHAR, "character", "VARCHAR(m) or STRING");
            case BINARY:
            case VARBINARY:
                return checkLength(from, to, DataTypeRoot.VARBINARY, "binary", "VARBINARY(m) or BYTES");
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return checkTimestamp((TimestampType) from, to);
            case ROW:
                return checkRow((RowType) from, to);
            default:
                return "a column of type " + describe(from) + " cannot change its type";
        }
    }

    private static boolean isIntegral(DataTypeRoot r) {
        return r == DataTypeRoot.TINYINT || r == DataTypeRoot.SMALLINT || r == DataTypeRoot.INTEGER
                || r == DataTypeRoot.BIGINT;
    }

    /** Integer digits needed for every value of an integral root. */
    private static int digits(DataTypeRoot r) {
        switch (r) {
            case TINYINT:
                return 3;
            case SMALLINT:
                return 5;
            case INTEGER:
                return 10;
            default:
                return 19;
        }
    }

    private static String checkFromIntegral(DataType from, DataType to) {
        DataTypeRoot f = from.root();
        DataTypeRoot t = to.root();
        if (isIntegral(t)) {
            return t.ordinal() > f.ordinal() ? null
                    : "it would narrow the integer type; old values might not fit";
        }
        if (t == DataTypeRoot.DOUBLE) {
            return f == DataTypeRoot.BIGINT
                    ? "DOUBLE cannot hold every BIGINT exactly; use DECIMAL(19, 0) or wider"
                    : null;
        }
        if (t == DataTypeRoot.FLOAT) {
            return f == DataTypeRoot.TINYINT || f == DataTypeRoot.SMALLINT ? null
                    : "FLOAT cannot hold every " + from.copy(true) + " exactly; use DOUBLE";
        }
        if (t == DataTypeRoot.DECIMAL) {
            DecimalType d = (DecimalType) to;
            int needed = digits(f);
            return d.precision() - d.scale() >= needed ? null
                    : "a " + from.copy(true) + " needs " + needed
                            + " integer digits but " + to.copy(true) + " has " + (d.precision() - d.scale());
        }
        return "an integer column can only be widened to a larger integer type, DOUBLE or "
                + "a DECIMAL with enough integer digits";
    }

    private static String checkDecimal(DecimalType from, DataType to) {
        if (to.root() != DataTypeRoot.DECIMAL) {
            return "a DECIMAL column can only become a DECIMAL of larger precision";
        }
        DecimalType d = (DecimalType) to;
        if (d.scale() != from.scale()) {
            return "the scale must stay " + from.scale()
                    + " (changing it would round or re-scale old values)";
        }
        return d.precision() >= from.precision() ? null
                : "the precision must not shrink; old values might not fit";
    }

    private static String checkLength(DataType from, DataType to, DataTypeRoot target, String kind, String allowed) {
        if (to.root() != target) {
            return "a " + kind + " string column can only become " + allowed;
        }
        return length(to) >= length(from) ? null
                : "the length must not shrink; old values might be longer";
    }

    private static int length(DataType t) {
        switch (t.root()) {
            case CHAR:
                return ((dev.streamhouse.storage.types.CharType) t).length();
            case VARCHAR:
                return ((dev.streamhouse.storage.types.VarCharType) t).length();
            case BINARY:
                return ((dev.streamhouse.storage.types.BinaryType) t).length();
            default:
                return ((dev.streamhouse.storage.types.VarBinaryType) t).length();
        }
    }

    private static String checkTimestamp(TimestampType from, DataType to) {
        if (to.root() != from.root()) {
            return "a timestamp column cannot switch between TIMESTAMP and TIMESTAMP WITH "
                    + "LOCAL TIME ZONE";
        }
        return ((TimestampType) to).precision() >= from.precision() ? null
                : "the precision must not shrink; old values would lose digits";
    }

    private static String checkRow(RowType from, DataType to) {
        if (to.root() != DataTypeRoot.ROW) {
            return "a ROW column can only get new nullable fields appended";
        }
        List<DataField> old = from.fields();
        List<DataField> now = ((RowType) to).fields();
        if (now.size() < old.size()) {
            return "fields of a ROW column cannot be dropped";
        }
        Set<String> oldNames = new HashSet<>();
        for (int i = 0; i < old.size(); i++) {
            DataField a = old.get(i);
            DataField b = now.get(i);
            oldNames.add(a.name());
            if (!a.name().equals(b.name()) || !a.type().asSQLString().equals(b.type().asSQLString())) {
                return "the existing fields of a ROW column must stay as they are, in "
                        + "order (field '" + a.name() + "' " + a.type() + " became '" + b.name() + "' " + b.type()
                        + "); only nullable fields may be appended";
            }
        }
        for (int i = old.size(); i < now.size(); i++) {
            DataField added = now.get(i);
            if (!added.type().isNullable()) {
                return "appended ROW field '" + added.name()
                        + "' must be nullable, since old rows have no value for it";
            }
        }
        return null;
    }

    private static String describe(DataType t) {
        return t.copy(true).asSQLString();
    }

    // ---- conversions ----

    private static UnaryOperator<Object> converter(DataType from, DataType to) {
        DataTypeRoot t = to.root();
        if (isIntegral(from.root())) {
            switch (t) {
                case SMALLINT:
                    return v -> (short) ((Number) v).longValue();
                case INTEGER:
                    return v -> (int) ((Number) v).longValue();
                case BIGINT:
                    return v -> ((Number) v).longValue();
                case FLOAT:
                    return v -> (float) ((Number) v).longValue();
                case DOUBLE:
                    return v -> (double) ((Number) v).longValue();
                case DECIMAL: {
                    DecimalType d = (DecimalType) to;
                    return v -> Decimal.fromBigDecimal(BigDecimal.valueOf(((Number) v).longValue()), d.precision(),
                            d.scale());
                }
                default:
                    break;
            }
        }
        switch (t) {
            case DOUBLE:
                return v -> (double) (Float) v;
            case DECIMAL: {
                DecimalType d = (DecimalType) to;
                return v -> Decimal.fromBigDecimal(((Decimal) v).toBigDecimal(), d.precision(), d.scale());
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                // Same value; it must still be read with the written precision (see CastedRow).
                return UnaryOperator.identity();
            default:
                // Strings and binaries: the internal value does not depend on the length.
                return null;
        }
    }
}
