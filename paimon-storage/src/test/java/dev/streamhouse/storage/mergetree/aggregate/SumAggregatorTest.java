package dev.streamhouse.storage.mergetree.aggregate;

import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.fold;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.of;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import java.math.BigDecimal;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SumAggregatorTest {

    static Stream<Arguments> numbers() {
        return Stream.of(
                Arguments.of(DataTypes.TINYINT(), (byte) 100, (byte) 27, (byte) 127),
                Arguments.of(DataTypes.SMALLINT(), (short) 3, (short) -5, (short) -2),
                Arguments.of(DataTypes.INT(), 40, 2, 42),
                Arguments.of(DataTypes.BIGINT(), 1L << 40, 5L, (1L << 40) + 5),
                Arguments.of(DataTypes.FLOAT(), 1.5f, 2.25f, 3.75f),
                Arguments.of(DataTypes.DOUBLE(), 0.5, -2.0, -1.5),
                Arguments.of(DataTypes.DECIMAL(10, 2), dec("1.25", 10, 2), dec("-3.50", 10, 2), dec("-2.25", 10, 2)),
                Arguments.of(DataTypes.DECIMAL(30, 3), dec("1.125", 30, 3), dec("2.000", 30, 3), dec("3.125", 30, 3)));
    }

    @ParameterizedTest
    @MethodSource("numbers")
    void addsAndSubtractsEachNumericType(DataType type, Object a, Object b, Object sum) {
        FieldAggregator agg = of("sum", type);
        assertThat(agg.agg(a, b)).isEqualTo(sum);
        assertThat(agg.retract(sum, b)).isEqualTo(a);
        assertThat(fold(agg, null, a, null, b, null)).isEqualTo(sum);
    }

    @ParameterizedTest
    @MethodSource("numbers")
    void nullNeverContributes(DataType type, Object a, Object b, Object sum) {
        FieldAggregator agg = of("sum", type);
        assertThat(agg.agg(null, null)).isNull();
        assertThat(agg.agg(null, a)).isSameAs(a);
        assertThat(agg.agg(a, null)).isSameAs(a);
        assertThat(agg.retract(a, null)).isSameAs(a);
        assertThat(agg.retract(null, null)).isNull();
    }

    @Test
    void retractingIntoNullNegates() {
        assertThat(of("sum", DataTypes.INT()).retract(null, 5)).isEqualTo(-5);
        assertThat(of("sum", DataTypes.TINYINT()).retract(null, (byte) -128)).isEqualTo((byte) -128);
        assertThat(of("sum", DataTypes.DOUBLE()).retract(null, 0.0)).isEqualTo(-0.0);
        assertThat(of("sum", DataTypes.DECIMAL(4, 1)).retract(null, dec("12.5", 4, 1))).isEqualTo(dec("-12.5", 4, 1));
    }

    @Test
    void integersWrapAround() {
        assertThat(of("sum", DataTypes.TINYINT()).agg((byte) 127, (byte) 1)).isEqualTo((byte) -128);
        assertThat(of("sum", DataTypes.SMALLINT()).agg(Short.MAX_VALUE, (short) 2)).isEqualTo((short) -32767);
        assertThat(of("sum", DataTypes.INT()).agg(Integer.MAX_VALUE, 1)).isEqualTo(Integer.MIN_VALUE);
        assertThat(of("sum", DataTypes.BIGINT()).retract(Long.MIN_VALUE, 1L)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void compactDecimalsAreNotCheckedAgainstThePrecision() {
        Decimal sum = (Decimal) of("sum", DataTypes.DECIMAL(5, 2)).agg(dec("999.99", 5, 2), dec("0.01", 5, 2));
        assertThat(sum.toBigDecimal()).isEqualByComparingTo("1000.00");
        assertThat(sum.precision()).isEqualTo(5);
    }

    @Test
    void wideDecimalsBecomeNullWhenTheyOverflow() {
        Decimal max = Decimal.fromBigDecimal(new BigDecimal("9".repeat(20)), 20, 0);
        assertThat(of("sum", DataTypes.DECIMAL(20, 0)).agg(max, dec("1", 20, 0))).isNull();
    }

    @Test
    void aCompactNegationIsChecked() {
        Decimal outOfRange = Decimal.fromUnscaledLong(100000, 5, 2);
        assertThat(of("sum", DataTypes.DECIMAL(5, 2)).retract(null, outOfRange)).isNull();
    }

    static Decimal dec(String value, int precision, int scale) {
        return Decimal.fromBigDecimal(new BigDecimal(value), precision, scale);
    }
}
