package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.DecimalType;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Apache Paimon's other functions of computed columns, on the text of values as Paimon sees it
 * ({@link SourceText}):
 * <ul>
 *   <li>{@code substring(col, begin[, end])}: {@link String#substring} of any column's text, a STRING;
 *       {@code begin} at least 0, {@code end} above {@code begin}; indexes beyond a value fail, as in Paimon;
 *   <li>{@code truncate(col, width)}, of the column's type: integers to {@code v - (((v % w) + w) % w)},
 *       a DECIMAL to a multiple of {@code w} units of its last digit, a CHAR/VARCHAR to its first
 *       {@code width} characters (a shorter value fails, as in Paimon);
 *   <li>{@code upper(col)}, {@code lower(col)}, {@code trim(col)} of a CHAR or VARCHAR column, a STRING
 *       (Paimon takes only VARCHAR columns);
 *   <li>{@code cast(value[, type])}: a constant ({@link CastLiteral}).
 * </ul>
 */
final class OtherFunctions {
    private OtherFunctions() {}

    /** Checks {@code substring}'s indexes: {@code begin >= 0}, {@code end > begin}. */
    static int[] substringIndexes(List<String> literals) {
        int begin = integer("begin index", literals.get(0));
        int end = literals.size() < 2 ? -1 : integer("end index", literals.get(1));
        if (begin < 0) {
            throw new IllegalArgumentException("the begin index " + begin + " is negative");
        }
        if (literals.size() == 2 && end <= begin) {
            throw new IllegalArgumentException("the end index " + end + " is not above the begin index " + begin);
        }
        return new int[] {begin, end};
    }

    static Binding substring(InputColumn in, List<String> literals, ZoneId zone) {
        int[] indexes = substringIndexes(literals);
        int begin = indexes[0];
        int end = indexes[1];
        return new Binding(DataTypes.STRING(), v -> {
            String s = SourceText.of(v, in.timestampDigits(), zone);
            if (begin > s.length() || end > s.length()) {
                throw new IllegalArgumentException("the indexes " + begin + (end < 0 ? "" : ", " + end)
                        + " are out of the range of '" + s + "'");
            }
            return end < 0 ? s.substring(begin) : s.substring(begin, end);
        });
    }

    /** Checks {@code truncate}'s width: a positive integer. */
    static int width(String literal) {
        int width = integer("width", literal);
        if (width <= 0) {
            throw new IllegalArgumentException("the width " + width + " is not positive");
        }
        return width;
    }

    static Binding truncate(InputColumn in, List<String> literals, ZoneId zone) {
        int width = width(literals.get(0));
        DataType type = in.type();
        UnaryOperator<Object> evaluation;
        switch (type.root()) {
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
                evaluation = v -> {
                    long n = SourceText.longValue(v);
                    return n - Math.floorMod(n, (long) width);
                };
                break;
            case DECIMAL: {
                int scale = ((DecimalType) type).scale();
                BigInteger w = BigInteger.valueOf(width);
                evaluation = v -> {
                    BigInteger unscaled = ((BigDecimal) v).setScale(scale).unscaledValue();
                    return new BigDecimal(unscaled.subtract(unscaled.mod(w)), scale);
                };
                break;
            }
            case CHAR:
            case VARCHAR:
                evaluation = v -> {
                    String s = SourceText.of(v, in.timestampDigits(), zone);
                    if (width > s.length()) {
                        throw new IllegalArgumentException("the width " + width + " is longer than '" + s + "'");
                    }
                    return s.substring(0, width);
                };
                break;
            default:
                throw new IllegalArgumentException("truncate() takes an integer, DECIMAL, CHAR or VARCHAR column, and "
                        + "column '" + in.name() + "' is " + type.asSQLString());
        }
        return new Binding(type, evaluation);
    }

    static Binding upper(InputColumn in, ZoneId zone) {
        return text("upper", in, zone, s -> s.toUpperCase(Locale.ROOT));
    }

    static Binding lower(InputColumn in, ZoneId zone) {
        return text("lower", in, zone, s -> s.toLowerCase(Locale.ROOT));
    }

    static Binding trim(InputColumn in, ZoneId zone) {
        return text("trim", in, zone, String::trim);
    }

    private static Binding text(String function, InputColumn in, ZoneId zone, UnaryOperator<String> f) {
        DataTypeRoot root = in.type().root();
        if (root != DataTypeRoot.CHAR && root != DataTypeRoot.VARCHAR) {
            throw new IllegalArgumentException(function + "() takes a CHAR or VARCHAR column, and column '"
                    + in.name() + "' is " + in.type().asSQLString());
        }
        return new Binding(DataTypes.STRING(), v -> f.apply(SourceText.of(v, in.timestampDigits(), zone)));
    }

    private static int integer(String what, String literal) {
        try {
            return Integer.parseInt(literal.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("the " + what + " '" + literal + "' is not an integer");
        }
    }
}
