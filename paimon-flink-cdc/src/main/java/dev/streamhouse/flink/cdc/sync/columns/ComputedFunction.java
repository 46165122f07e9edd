package dev.streamhouse.flink.cdc.sync.columns;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The functions of {@code --computed_column}, with Apache Paimon 1.3.1's names, arguments and result
 * types: the temporal functions ({@link TemporalFunctions}) {@code year}, {@code month}, {@code day},
 * {@code hour}, {@code minute}, {@code second} (INT), {@code date_format} (STRING) and {@code now()}
 * (TIMESTAMP(3)), and the others ({@link OtherFunctions}) {@code substring} (STRING), {@code truncate}
 * (the column's type), {@code cast} (the given type), {@code upper}, {@code lower} and {@code trim}
 * (STRING). Names are case-insensitive. All but {@code now} and {@code cast} read one column, their first
 * argument; the other arguments are literals, checked when the argument is parsed
 * ({@link #checkLiterals}); the column's type is checked when the function is bound to it ({@link #bind}).
 */
public enum ComputedFunction {
    YEAR("year(column[, precision])", 0, 1),
    MONTH("month(column[, precision])", 0, 1),
    DAY("day(column[, precision])", 0, 1),
    HOUR("hour(column[, precision])", 0, 1),
    MINUTE("minute(column[, precision])", 0, 1),
    SECOND("second(column[, precision])", 0, 1),
    DATE_FORMAT("date_format(column, format[, precision])", 1, 2),
    NOW("now()", 0, 0),
    SUBSTRING("substring(column, begin[, end])", 1, 2),
    TRUNCATE("truncate(column, width)", 1, 1),
    CAST("cast(value[, type])", 1, 2),
    UPPER("upper(column)", 0, 0),
    LOWER("lower(column)", 0, 0),
    TRIM("trim(column)", 0, 0);

    private final String signature;
    private final int minLiterals;
    private final int maxLiterals;

    ComputedFunction(String signature, int minLiterals, int maxLiterals) {
        this.signature = signature;
        this.minLiterals = minLiterals;
        this.maxLiterals = maxLiterals;
    }

    /** The function of a name, any case; null when there is none. */
    public static ComputedFunction of(String name) {
        for (ComputedFunction f : values()) {
            if (f.functionName().equals(name.toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        return null;
    }

    /** The names of all functions, comma-separated. */
    public static String names() {
        List<String> names = new ArrayList<>();
        for (ComputedFunction f : values()) {
            names.add(f.functionName());
        }
        return String.join(", ", names);
    }

    /** The name, e.g. {@code date_format}. */
    public String functionName() {
        return signature.substring(0, signature.indexOf('('));
    }

    /** How the function is called, e.g. {@code date_format(column, format[, precision])}. */
    public String signature() {
        return signature;
    }

    /** Whether the function reads a column (its first argument). */
    public boolean takesColumn() {
        return this != NOW && this != CAST;
    }

    /**
     * Checks the literal arguments (those after the column, or all for {@code cast}).
     *
     * @throws IllegalArgumentException saying what is wrong with them
     */
    public void checkLiterals(List<String> literals) {
        if (literals.size() < minLiterals || literals.size() > maxLiterals) {
            int given = literals.size() + (takesColumn() ? 1 : 0);
            throw new IllegalArgumentException("it is called " + signature + ", not with " + given + " argument"
                    + (given == 1 ? "" : "s"));
        }
        switch (this) {
            case DATE_FORMAT:
                TemporalFunctions.pattern(literals.get(0));
                if (literals.size() > 1) {
                    TemporalFunctions.precision(literals.get(1));
                }
                break;
            case SUBSTRING:
                OtherFunctions.substringIndexes(literals);
                break;
            case TRUNCATE:
                OtherFunctions.width(literals.get(0));
                break;
            case CAST:
                CastLiteral.bind(literals);
                break;
            case NOW:
            case UPPER:
            case LOWER:
            case TRIM:
                break;
            default:
                if (!literals.isEmpty()) {
                    TemporalFunctions.precision(literals.get(0));
                }
        }
    }

    /**
     * The function applied to {@code input}.
     *
     * @param input the column read, null for {@code now} and {@code cast}
     * @param zone the time zone TIMESTAMP_LTZ values are read in
     * @throws IllegalArgumentException if the function does not take the column's type
     */
    Binding bind(InputColumn input, List<String> literals, ZoneId zone) {
        switch (this) {
            case YEAR:
                return TemporalFunctions.part("year", LocalDateTime::getYear, input, literals, zone);
            case MONTH:
                return TemporalFunctions.part("month", LocalDateTime::getMonthValue, input, literals, zone);
            case DAY:
                return TemporalFunctions.part("day", LocalDateTime::getDayOfMonth, input, literals, zone);
            case HOUR:
                return TemporalFunctions.part("hour", LocalDateTime::getHour, input, literals, zone);
            case MINUTE:
                return TemporalFunctions.part("minute", LocalDateTime::getMinute, input, literals, zone);
            case SECOND:
                return TemporalFunctions.part("second", LocalDateTime::getSecond, input, literals, zone);
            case DATE_FORMAT:
                return TemporalFunctions.dateFormat(input, literals, zone);
            case NOW:
                return TemporalFunctions.now();
            case SUBSTRING:
                return OtherFunctions.substring(input, literals, zone);
            case TRUNCATE:
                return OtherFunctions.truncate(input, literals, zone);
            case CAST:
                return CastLiteral.bind(literals);
            case UPPER:
                return OtherFunctions.upper(input, zone);
            case LOWER:
                return OtherFunctions.lower(input, zone);
            default:
                return OtherFunctions.trim(input, zone);
        }
    }
}
