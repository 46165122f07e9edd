package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.flink.common.FlinkTypes;
import dev.streamhouse.storage.types.BinaryType;
import dev.streamhouse.storage.types.CharType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.VarBinaryType;
import dev.streamhouse.storage.types.VarCharType;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code cast(value[, type])}, Apache Paimon's constant computed column: {@code value} as a constant of
 * {@code type} (an atomic SQL type as Flink spells it, e.g. {@code INT}, {@code DECIMAL(10, 2)},
 * {@code TIMESTAMP(3)}; STRING when omitted). The value is converted when the argument is parsed, so a
 * value the type cannot hold fails there: integers and floating point numbers in Java syntax, a
 * DECIMAL that fits, BOOLEAN {@code true/false/t/f/yes/no/y/n/1/0}, DATE {@code yyyy-M-d}, TIME
 * {@code HH:mm[:ss[.f]]}, TIMESTAMP {@code yyyy-M-d[ H:m:s[.f]]}, TIMESTAMP_LTZ the same in the JVM's
 * time zone (as Paimon reads it), bytes as Base64, strings at most the type's length.
 */
final class CastLiteral {
    private static final Set<String> TRUE = Set.of("true", "t", "yes", "y", "1");
    private static final Set<String> FALSE = Set.of("false", "f", "no", "n", "0");

    private CastLiteral() {}

    /** The type and value of {@code cast(literals...)}. */
    static Binding bind(List<String> literals) {
        DataType type = literals.size() < 2 ? DataTypes.STRING() : type(literals.get(1));
        Object value = value(literals.get(0), type);
        return new Binding(type, v -> value);
    }

    /**
     * Parses a cast's type.
     *
     * @throws IllegalArgumentException if it is no atomic type a table can store
     */
    static DataType type(String text) {
        DataType type;
        try {
            type = FlinkTypes.toStorageType(LogicalTypeParser.parse(text, CastLiteral.class.getClassLoader()), "cast");
        } catch (ValidationException | IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not a SQL type (" + e.getMessage() + ")", e);
        }
        if (type.root().isNested()) {
            throw new IllegalArgumentException("cast() makes values of atomic types, not " + type.asSQLString());
        }
        return type;
    }

    /**
     * A cast's value as the Java value of {@code type}.
     *
     * @throws IllegalArgumentException if the type cannot hold it
     */
    static Object value(String text, DataType type) {
        String t = text.trim();
        try {
            switch (type.root()) {
                case CHAR:
                case VARCHAR:
                    return fitting(text, type instanceof CharType c ? c.length() : ((VarCharType) type).length());
                case BOOLEAN:
                    return bool(t);
                case TINYINT:
                    return (long) Byte.parseByte(t);
                case SMALLINT:
                    return (long) Short.parseShort(t);
                case INTEGER:
                    return (long) Integer.parseInt(t);
                case BIGINT:
                    return Long.parseLong(t);
                case FLOAT:
                    return Float.parseFloat(t);
                case DOUBLE:
                    return Double.parseDouble(t);
                case DECIMAL:
                    return decimal(t, (DecimalType) type);
                case DATE:
                    return TemporalFunctions.parse(t).toLocalDate();
                case TIME_WITHOUT_TIME_ZONE:
                    return Duration.ofNanos(LocalTime.parse(t).toNanoOfDay());
                case TIMESTAMP_WITHOUT_TIME_ZONE:
                    return TemporalFunctions.parse(t);
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                    return TemporalFunctions.parse(t).atZone(ZoneId.systemDefault()).toInstant();
                case BINARY:
                case VARBINARY: {
                    byte[] bytes = Base64.getDecoder().decode(t);
                    int length = type instanceof BinaryType b ? b.length() : ((VarBinaryType) type).length();
                    if (bytes.length > length) {
                        throw new IllegalArgumentException("it has " + bytes.length + " bytes");
                    }
                    return bytes;
                }
                default:
                    throw new IllegalArgumentException("cast() does not make " + type.asSQLString() + " values");
            }
        } catch (IllegalArgumentException | DateTimeException | ArithmeticException e) {
            throw new IllegalArgumentException("'" + text + "' is no " + type.asSQLString() + " value ("
                    + e.getMessage() + ")", e);
        }
    }

    private static String fitting(String text, int length) {
        if (text.length() > length) {
            throw new IllegalArgumentException("it is longer than " + length + " characters");
        }
        return text;
    }

    private static boolean bool(String t) {
        String lower = t.toLowerCase(Locale.ROOT);
        if (TRUE.contains(lower)) {
            return true;
        }
        if (FALSE.contains(lower)) {
            return false;
        }
        throw new IllegalArgumentException("a BOOLEAN is true or false");
    }

    private static BigDecimal decimal(String t, DecimalType type) {
        BigDecimal d = new BigDecimal(t);
        if (d.scale() > type.scale()) {
            d = d.setScale(type.scale(), RoundingMode.HALF_UP);
        }
        if (d.precision() - d.scale() > type.precision() - type.scale()) {
            throw new IllegalArgumentException("it has more than " + (type.precision() - type.scale())
                    + " digits before the point");
        }
        return d;
    }
}
