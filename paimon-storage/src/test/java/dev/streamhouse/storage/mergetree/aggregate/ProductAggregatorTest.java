package dev.streamhouse.storage.mergetree.aggregate;

import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.fold;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.of;
import static dev.streamhouse.storage.mergetree.aggregate.SumAggregatorTest.dec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProductAggregatorTest {

    static Stream<Arguments> numbers() {
        return Stream.of(
                Arguments.of(DataTypes.TINYINT(), (byte) 6, (byte) -7, (byte) -42),
                Arguments.of(DataTypes.SMALLINT(), (short) 30, (short) 20, (short) 600),
                Arguments.of(DataTypes.INT(), 6, 7, 42),
                Arguments.of(DataTypes.BIGINT(), 1L << 33, 4L, 1L << 35),
                Arguments.of(DataTypes.FLOAT(), 1.5f, 2f, 3f),
                Arguments.of(DataTypes.DOUBLE(), 0.5, -4.0, -2.0),
                Arguments.of(DataTypes.DECIMAL(10, 2), dec("1.50", 10, 2), dec("2.00", 10, 2), dec("3.00", 10, 2)),
                Arguments.of(DataTypes.DECIMAL(25, 1), dec("2.5", 25, 1), dec("4.0", 25, 1), dec("10.0", 25, 1)));
    }

    @ParameterizedTest
    @MethodSource("numbers")
    void multipliesAndDividesEachNumericType(DataType type, Object a, Object b, Object product) {
        FieldAggregator agg = of("product", type);
        assertThat(agg.agg(a, b)).isEqualTo(product);
        assertThat(agg.retract(product, b)).isEqualTo(a);
        assertThat(fold(agg, null, a, null, b)).isEqualTo(product);
    }

    @ParameterizedTest
    @MethodSource("numbers")
    void nullNeverContributesNotEvenWhenRetracting(DataType type, Object a, Object b, Object product) {
        FieldAggregator agg = of("product", type);
        assertThat(agg.agg(null, a)).isSameAs(a);
        assertThat(agg.agg(a, null)).isSameAs(a);
        assertThat(agg.retract(null, a)).isNull();
        assertThat(agg.retract(a, null)).isSameAs(a);
    }

    @Test
    void integersWrapAndDivideTruncating() {
        assertThat(of("product", DataTypes.TINYINT()).agg((byte) 16, (byte) 16)).isEqualTo((byte) 0);
        assertThat(of("product", DataTypes.INT()).retract(7, 2)).isEqualTo(3);
        assertThat(of("product", DataTypes.BIGINT()).retract(-7L, 2L)).isEqualTo(-3L);
    }

    @Test
    void decimalsRoundHalfUpAndOverflowToNull() {
        assertThat(of("product", DataTypes.DECIMAL(10, 2)).agg(dec("1.25", 10, 2), dec("0.50", 10, 2)))
                .isEqualTo(dec("0.63", 10, 2));
        assertThat(of("product", DataTypes.DECIMAL(4, 0)).agg(dec("100", 4, 0), dec("100", 4, 0))).isNull();
    }

    @Test
    void retractionsThatCannotDivideFailNamingTheColumn() {
        assertThatThrownBy(() -> of("product", DataTypes.INT()).retract(5, 0))
                .isInstanceOf(ArithmeticException.class).hasMessageContaining("column 'c'");
        assertThatThrownBy(() -> of("product", DataTypes.DECIMAL(10, 2)).retract(dec("1.00", 10, 2), dec("3.00", 10, 2)))
                .isInstanceOf(ArithmeticException.class).hasMessageContaining("column 'c'");
        assertThat(of("product", DataTypes.DOUBLE()).retract(1.0, 0.0)).isEqualTo(Double.POSITIVE_INFINITY);
    }
}
