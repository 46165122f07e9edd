package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;

import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Optional;

/**
 * Converts a Flink literal to a value {@link dev.streamhouse.storage.predicate.PredicateBuilder} accepts
 * for a column of a given type, only when comparing the column with the converted value means exactly
 * what comparing it with the literal means in Flink. Otherwise (other type family, a fraction that the
 * column cannot hold, NULL, CHAR columns whose padding rules differ) the result is empty.
 */
final class FilterLiterals {
    private FilterLiterals() {}

    static Optional<Object> convert(ValueLiteralExpression literal, DataType columnType) {
        if (literal.isNull()) {
            return Optional.empty();
        }
        LogicalTypeRoot root = literal.getOutputDataType().getLogicalType().getTypeRoot();
        Object value = literal.getValueAs(literal.getOutputDataType().getConversionClass()).orElse(null);
        if (value == null) {
            return Optional.empty();
        }
        switch (columnType.root()) {
            case VARCHAR:
                return root.getFamilies().contains(LogicalTypeFamily.CHARACTER_STRING)
                        ? Optional.of(value.toString())
                        : Optional.empty();
            case BOOLEAN:
                return root == LogicalTypeRoot.BOOLEAN ? Optional.of(value) : Optional.empty();
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
                // PredicateBuilder refuses values that are not whole or out of range.
                return exactNumber(value).map(n -> n);
            case DECIMAL:
                return exactNumber(value).flatMap(n -> decimal(n, (DecimalType) columnType));
            case FLOAT:
                return approximate(value).filter(d -> d.floatValue() == d.doubleValue()).map(Double::floatValue);
            case DOUBLE:
                return approximate(value).map(d -> d);
            case DATE:
                return value instanceof LocalDate ? Optional.of(value) : Optional.empty();
            case TIME_WITHOUT_TIME_ZONE:
                // TIME values are stored in milliseconds
                return value instanceof LocalTime && ((LocalTime) value).getNano() % 1_000_000 == 0
                        ? Optional.of(value)
                        : Optional.empty();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return value instanceof LocalDateTime ? Optional.of(value) : Optional.empty();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return value instanceof Instant ? Optional.of(value) : Optional.empty();
            case BINARY:
            case VARBINARY:
                return value instanceof byte[] ? Optional.of(value) : Optional.empty();
            default:
                return Optional.empty();
        }
    }

    /** An exact numeric literal (integer or decimal) as a BigDecimal. */
    private static Optional<BigDecimal> exactNumber(Object value) {
        if (value instanceof BigDecimal) {
            return Optional.of((BigDecimal) value);
        }
        if (value instanceof Byte || value instanceof Short || value instanceof Integer || value instanceof Long) {
            return Optional.of(BigDecimal.valueOf(((Number) value).longValue()));
        }
        return Optional.empty();
    }

    /** A numeric literal as a double, only if the double is exactly the literal's value. */
    private static Optional<Double> approximate(Object value) {
        if (value instanceof Double || value instanceof Float) {
            return Optional.of(((Number) value).doubleValue());
        }
        return exactNumber(value).filter(n -> new BigDecimal(n.doubleValue()).compareTo(n) == 0)
                .map(BigDecimal::doubleValue);
    }

    /** The literal at the column's scale, only if that loses nothing and fits the precision. */
    private static Optional<Object> decimal(BigDecimal value, DecimalType type) {
        BigDecimal scaled;
        try {
            scaled = value.setScale(type.scale(), RoundingMode.UNNECESSARY);
        } catch (ArithmeticException moreFractionDigitsThanTheColumn) {
            return Optional.empty();
        }
        if (scaled.precision() > type.precision()) {
            return Optional.empty();
        }
        return Optional.ofNullable(Decimal.fromBigDecimal(scaled, type.precision(), type.scale()));
    }
}
