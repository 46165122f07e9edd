package dev.streamhouse.flink.catalog;

import dev.streamhouse.flink.common.FlinkTypes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.BOOLEAN;
import static org.apache.flink.table.api.DataTypes.DATE;
import static org.apache.flink.table.api.DataTypes.DECIMAL;
import static org.apache.flink.table.api.DataTypes.DOUBLE;
import static org.apache.flink.table.api.DataTypes.INT;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.apache.flink.table.api.DataTypes.TIME;
import static org.apache.flink.table.api.DataTypes.TIMESTAMP;
import static org.apache.flink.table.api.DataTypes.TIMESTAMP_LTZ;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.TypeLiteralExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinition;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.types.DataType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Optional;

class PredicateConverterTest {
    private static final RowType ROW = new RowType(List.of(
            new DataField(0, "id", DataTypes.INT()),
            new DataField(1, "name", DataTypes.STRING()),
            new DataField(2, "code", DataTypes.CHAR(3)),
            new DataField(3, "price", DataTypes.DECIMAL(10, 2)),
            new DataField(4, "ts", DataTypes.TIMESTAMP(3)),
            new DataField(5, "ltz", DataTypes.TIMESTAMP_LTZ(3)),
            new DataField(6, "day", DataTypes.DATE()),
            new DataField(7, "flag", DataTypes.BOOLEAN()),
            new DataField(8, "ratio", DataTypes.FLOAT()),
            new DataField(9, "t", DataTypes.TIME(0)),
            new DataField(10, "dt", DataTypes.STRING()),
            new DataField(11, "big", DataTypes.BIGINT())));

    private final PredicateConverter converter = new PredicateConverter(ROW);
    private final PredicateBuilder pb = new PredicateBuilder(ROW);

    // ------------------------------------------------------------------ expression helpers

    private static FieldReferenceExpression field(String name) {
        int index = ROW.fieldIndex(name);
        return new FieldReferenceExpression(name, flinkType(index), 0, index);
    }

    private static DataType flinkType(int index) {
        return org.apache.flink.table.types.utils.TypeConversions.fromLogicalToDataType(
                FlinkTypes.toFlinkType(ROW.typeAt(index), ROW.field(index).name()));
    }

    private static ValueLiteralExpression lit(Object value, DataType type) {
        return new ValueLiteralExpression(value, type.notNull());
    }

    private static ValueLiteralExpression lit(int value) {
        return lit(value, INT());
    }

    private static ValueLiteralExpression lit(String value) {
        return lit(value, STRING());
    }

    private static CallExpression call(BuiltInFunctionDefinition f, ResolvedExpression... args) {
        return CallExpression.permanent(f, List.of(args), BOOLEAN());
    }

    private static CallExpression cast(ResolvedExpression e, DataType to) {
        return CallExpression.permanent(BuiltInFunctionDefinitions.CAST, List.of(e, new TypeLiteralExpression(to)), to);
    }

    private Optional<Predicate> convert(ResolvedExpression e) {
        return converter.convert(e);
    }

    // ------------------------------------------------------------------ comparisons

    @Test
    void comparisonsWithLiteralOnTheRight() {
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("id"), lit(5)))).contains(pb.equal(0, 5));
        assertThat(convert(call(BuiltInFunctionDefinitions.NOT_EQUALS, field("id"), lit(5)))).contains(pb.notEqual(0, 5));
        assertThat(convert(call(BuiltInFunctionDefinitions.LESS_THAN, field("id"), lit(5)))).contains(pb.lessThan(0, 5));
        assertThat(convert(call(BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL, field("id"), lit(5))))
                .contains(pb.lessOrEqual(0, 5));
        assertThat(convert(call(BuiltInFunctionDefinitions.GREATER_THAN, field("id"), lit(5))))
                .contains(pb.greaterThan(0, 5));
        assertThat(convert(call(BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL, field("id"), lit(5))))
                .contains(pb.greaterOrEqual(0, 5));
    }

    @Test
    void literalOnTheLeftMirrorsTheComparison() {
        assertThat(convert(call(BuiltInFunctionDefinitions.LESS_THAN, lit(5), field("id"))))
                .contains(pb.greaterThan(0, 5));
        assertThat(convert(call(BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL, lit(5), field("id"))))
                .contains(pb.lessOrEqual(0, 5));
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, lit("x"), field("name"))))
                .contains(pb.equal(1, "x"));
    }

    @Test
    void inIsNullAndIsNotNull() {
        assertThat(convert(call(BuiltInFunctionDefinitions.IN, field("id"), lit(1), lit(2), lit(3))))
                .contains(pb.in(0, List.of(1, 2, 3)));
        assertThat(convert(call(BuiltInFunctionDefinitions.IS_NULL, field("name")))).contains(pb.isNull(1));
        assertThat(convert(call(BuiltInFunctionDefinitions.IS_NOT_NULL, field("code")))).contains(pb.isNotNull(2));
    }

    @Test
    void likeWithATrailingWildcardIsStartsWithAndWithoutOneIsEquals() {
        assertThat(convert(call(BuiltInFunctionDefinitions.LIKE, field("name"), lit("ab%"))))
                .contains(pb.startsWith(1, "ab"));
        assertThat(convert(call(BuiltInFunctionDefinitions.LIKE, field("name"), lit("ab%%"))))
                .contains(pb.startsWith(1, "ab"));
        assertThat(convert(call(BuiltInFunctionDefinitions.LIKE, field("name"), lit("abc"))))
                .contains(pb.equal(1, "abc"));
    }

    @Test
    void likePatternsWithOtherWildcardsAreNotConvertible() {
        for (String pattern : List.of("%ab", "a%b", "a%b%", "a_c%", "a\\%%")) {
            assertThat(convert(call(BuiltInFunctionDefinitions.LIKE, field("name"), lit(pattern))))
                    .as(pattern).isEmpty();
        }
        assertThat(convert(call(BuiltInFunctionDefinitions.LIKE, field("name"), lit("ab%"), lit("!"))))
                .as("ESCAPE clause").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.LIKE, field("code"), lit("ab%"))))
                .as("CHAR column").isEmpty();
    }

    // ------------------------------------------------------------------ AND, OR, NOT

    @Test
    void andOrOfConvertibleChildren() {
        CallExpression a = call(BuiltInFunctionDefinitions.EQUALS, field("id"), lit(1));
        CallExpression b = call(BuiltInFunctionDefinitions.IS_NULL, field("name"));
        assertThat(convert(call(BuiltInFunctionDefinitions.AND, a, b)))
                .contains(PredicateBuilder.and(pb.equal(0, 1), pb.isNull(1)));
        assertThat(convert(call(BuiltInFunctionDefinitions.OR, a, b)))
                .contains(PredicateBuilder.or(pb.equal(0, 1), pb.isNull(1)));
    }

    @Test
    void andOrWithANonConvertibleChildAreNotConvertible() {
        CallExpression a = call(BuiltInFunctionDefinitions.EQUALS, field("id"), lit(1));
        CallExpression notConvertible = call(BuiltInFunctionDefinitions.EQUALS, field("id"), field("big"));
        assertThat(convert(call(BuiltInFunctionDefinitions.AND, a, notConvertible))).isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.OR, a, notConvertible))).isEmpty();
    }

    @Test
    void notNegatesWithSqlSemantics() {
        Predicate notEq = convert(call(BuiltInFunctionDefinitions.NOT,
                call(BuiltInFunctionDefinitions.EQUALS, field("id"), lit(5)))).orElseThrow();
        assertThat(notEq).isEqualTo(pb.notEqual(0, 5));
        assertThat(notEq.test(GenericRow.of(6, null, null, null, null, null, null, null, null, null, null, null)))
                .isTrue();
        assertThat(notEq.test(GenericRow.of(null, null, null, null, null, null, null, null, null, null, null, null)))
                .as("NOT (NULL = 5) is NULL, which a WHERE clause drops").isFalse();

        assertThat(convert(call(BuiltInFunctionDefinitions.NOT, call(BuiltInFunctionDefinitions.IS_NULL, field("name")))))
                .contains(pb.isNotNull(1));
        assertThat(convert(call(BuiltInFunctionDefinitions.NOT,
                call(BuiltInFunctionDefinitions.IN, field("id"), lit(1), lit(2)))))
                .contains(pb.notIn(0, List.of(1, 2)));
        assertThat(convert(call(BuiltInFunctionDefinitions.NOT,
                call(BuiltInFunctionDefinitions.LIKE, field("name"), lit("a%")))))
                .as("NOT LIKE has no predicate").isEmpty();
    }

    @Test
    void bareBooleanColumnAndItsNegation() {
        Predicate flag = convert(field("flag")).orElseThrow();
        Predicate notFlag = convert(call(BuiltInFunctionDefinitions.NOT, field("flag"))).orElseThrow();
        GenericRow t = GenericRow.of(null, null, null, null, null, null, null, true, null, null, null, null);
        GenericRow f = GenericRow.of(null, null, null, null, null, null, null, false, null, null, null, null);
        GenericRow n = GenericRow.of(null, null, null, null, null, null, null, null, null, null, null, null);
        assertThat(List.of(flag.test(t), flag.test(f), flag.test(n))).containsExactly(true, false, false);
        assertThat(List.of(notFlag.test(t), notFlag.test(f), notFlag.test(n))).containsExactly(false, true, false);
        assertThat(convert(field("id"))).as("a non-boolean column is no filter").isEmpty();
    }

    // ------------------------------------------------------------------ literals

    @Test
    void literalsOfEachTypeBecomeInternalValues() {
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("price"), lit(new BigDecimal("1.5"), DECIMAL(2, 1)))))
                .contains(pb.equal(3, Decimal.fromBigDecimal(new BigDecimal("1.50"), 10, 2)));
        LocalDateTime dt = LocalDateTime.of(2024, 1, 2, 3, 4, 5, 6_000_000);
        assertThat(convert(call(BuiltInFunctionDefinitions.GREATER_THAN, field("ts"), lit(dt, TIMESTAMP(3)))))
                .contains(pb.greaterThan(4, Timestamp.fromLocalDateTime(dt)));
        Instant instant = Instant.parse("2024-01-02T03:04:05.006Z");
        assertThat(convert(call(BuiltInFunctionDefinitions.LESS_THAN, field("ltz"), lit(instant, TIMESTAMP_LTZ(3)))))
                .contains(pb.lessThan(5, Timestamp.fromInstant(instant)));
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("day"), lit(LocalDate.of(2024, 2, 29), DATE()))))
                .contains(pb.equal(6, (int) LocalDate.of(2024, 2, 29).toEpochDay()));
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("t"), lit(LocalTime.of(1, 2, 3), TIME(0)))))
                .contains(pb.equal(9, 3_723_000));
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("ratio"), lit(0.5d, DOUBLE()))))
                .contains(pb.equal(8, 0.5f));
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("big"), lit(5000000000L, BIGINT()))))
                .contains(pb.equal(11, 5000000000L));
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("id"), lit(new BigDecimal("7.00"), DECIMAL(3, 2)))))
                .contains(pb.equal(0, 7));
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("flag"), lit(true, BOOLEAN()))))
                .contains(pb.equal(7, true));
    }

    @Test
    void lossyOrMismatchedLiteralsAreNotConvertible() {
        assertThat(convert(call(BuiltInFunctionDefinitions.LESS_THAN, field("price"),
                lit(new BigDecimal("1.005"), DECIMAL(4, 3))))).as("more fraction digits than the column").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("id"), lit(5000000000L, BIGINT()))))
                .as("outside INT").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("id"), lit(new BigDecimal("1.5"), DECIMAL(2, 1)))))
                .as("not a whole number").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("ratio"), lit(0.1d, DOUBLE()))))
                .as("0.1 is not a float").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("ltz"),
                lit(LocalDateTime.of(2024, 1, 1, 0, 0), TIMESTAMP(3))))).as("zone-less literal for LTZ").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("t"),
                lit(LocalTime.of(1, 2, 3, 1000), TIME(6))))).as("microseconds of a millisecond TIME").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("name"), lit(5)))).as("type mismatch").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("code"), lit("abc"))))
                .as("CHAR padding rules").isEmpty();
    }

    @Test
    void otherExpressionsAreNotConvertible() {
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("id"),
                new ValueLiteralExpression(null, INT())))).as("NULL literal").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.IN, field("id"), lit(1),
                new ValueLiteralExpression(null, INT())))).as("NULL in IN").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, field("id"), field("big")))).as("two columns").isEmpty();
        CallExpression upper = CallExpression.permanent(BuiltInFunctionDefinitions.UPPER, List.of(field("name")), STRING());
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, upper, lit("A")))).as("function of a column").isEmpty();
        FieldReferenceExpression unknown = new FieldReferenceExpression("nope", INT(), 0, 42);
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, unknown, lit(1)))).as("unknown column").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.IS_TRUE, field("flag")))).as("IS TRUE").isEmpty();
    }

    @Test
    void wideningCastsOfAColumnAreSeenThrough() {
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, cast(field("id"), BIGINT()), lit(5L, BIGINT()))))
                .contains(pb.equal(0, 5));
        assertThat(convert(call(BuiltInFunctionDefinitions.GREATER_THAN, cast(field("id"), DECIMAL(12, 2)),
                lit(new BigDecimal("3.00"), DECIMAL(3, 2))))).contains(pb.greaterThan(0, 3));
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, cast(field("id"), DOUBLE()), lit(5.0d, DOUBLE()))))
                .as("to DOUBLE").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, cast(field("big"), INT()), lit(5))))
                .as("narrowing").isEmpty();
        assertThat(convert(call(BuiltInFunctionDefinitions.EQUALS, cast(field("id"), DECIMAL(5, 2)), lit(5))))
                .as("DECIMAL(5, 2) cannot hold every INT").isEmpty();
    }

    // ------------------------------------------------------------------ push-down classification

    @Test
    void batchConsumesPartitionOnlyFiltersAndPushesAllConvertibleOnes() {
        CallExpression onPartition = call(BuiltInFunctionDefinitions.EQUALS, field("dt"), lit("2024-01-01"));
        CallExpression onData = call(BuiltInFunctionDefinitions.GREATER_THAN, field("id"), lit(3));
        CallExpression mixed = call(BuiltInFunctionDefinitions.OR, onPartition, onData);
        CallExpression notConvertible = call(BuiltInFunctionDefinitions.EQUALS, field("id"), field("big"));

        PushedFilters batch = PredicateConverter.pushDown(ROW, List.of("dt"),
                List.of(onPartition, onData, mixed, notConvertible), false);

        assertThat(batch.consumedFilters()).containsExactly(onPartition);
        assertThat(batch.remainingFilters()).containsExactly(onData, mixed, notConvertible);
        assertThat(batch.predicate()).contains(PredicateBuilder.and(
                pb.equal(10, BinaryString.fromString("2024-01-01")), pb.greaterThan(0, 3),
                PredicateBuilder.or(pb.equal(10, "2024-01-01"), pb.greaterThan(0, 3))));
    }

    @Test
    void streamingConsumesNothing() {
        CallExpression onPartition = call(BuiltInFunctionDefinitions.EQUALS, field("dt"), lit("2024-01-01"));
        PushedFilters streaming = PredicateConverter.pushDown(ROW, List.of("dt"), List.of(onPartition), true);
        assertThat(streaming.consumedFilters()).isEmpty();
        assertThat(streaming.remainingFilters()).containsExactly(onPartition);
        assertThat(streaming.predicate()).contains(pb.equal(10, "2024-01-01"));
    }

    @Test
    void nothingConvertibleGivesNoPredicate() {
        CallExpression notConvertible = call(BuiltInFunctionDefinitions.EQUALS, field("id"), field("big"));
        PushedFilters pushed = PredicateConverter.pushDown(ROW, List.of("dt"), List.of(notConvertible), false);
        assertThat(pushed.predicate()).isEmpty();
        assertThat(pushed.remainingFilters()).containsExactly(notConvertible);
    }
}
