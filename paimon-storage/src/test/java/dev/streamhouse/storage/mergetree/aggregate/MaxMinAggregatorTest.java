package dev.streamhouse.storage.mergetree.aggregate;

import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.array;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.fold;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.of;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.str;
import static dev.streamhouse.storage.mergetree.aggregate.SumAggregatorTest.dec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MaxMinAggregatorTest {

    /** Values of each orderable type, ascending. */
    static Stream<Arguments> ordered() {
        return Stream.of(
                Arguments.of(DataTypes.TINYINT(), new Object[] {(byte) -3, (byte) 0, (byte) 9}),
                Arguments.of(DataTypes.SMALLINT(), new Object[] {(short) -300, (short) 2, (short) 3}),
                Arguments.of(DataTypes.INT(), new Object[] {Integer.MIN_VALUE, 0, 7}),
                Arguments.of(DataTypes.BIGINT(), new Object[] {-1L, 1L << 40, Long.MAX_VALUE}),
                Arguments.of(DataTypes.FLOAT(), new Object[] {-1f, -0.0f, 0.0f, Float.NaN}),
                Arguments.of(DataTypes.DOUBLE(), new Object[] {Double.NEGATIVE_INFINITY, 2.5, Double.NaN}),
                Arguments.of(DataTypes.DECIMAL(6, 2), new Object[] {dec("-10.00", 6, 2), dec("0.01", 6, 2)}),
                Arguments.of(DataTypes.DATE(), new Object[] {-5, 19000}),
                Arguments.of(DataTypes.TIME(), new Object[] {0, 86_399_999}),
                Arguments.of(DataTypes.TIMESTAMP(9), new Object[] {Timestamp.fromEpochMillis(5, 1),
                        Timestamp.fromEpochMillis(5, 2), Timestamp.fromEpochMillis(6)}),
                Arguments.of(DataTypes.TIMESTAMP_LTZ(3), new Object[] {Timestamp.fromEpochMillis(-1), Timestamp.fromEpochMillis(1)}),
                Arguments.of(DataTypes.STRING(), new Object[] {str(""), str("a"), str("ab"), str("b"), str("é")}),
                Arguments.of(DataTypes.CHAR(2), new Object[] {str("a"), str("z")}),
                Arguments.of(DataTypes.BYTES(), new Object[] {new byte[0], new byte[] {1}, new byte[] {1, 0},
                        new byte[] {(byte) 0x80}}),
                Arguments.of(DataTypes.BINARY(1), new Object[] {new byte[] {0x7f}, new byte[] {(byte) 0xff}}));
    }

    @ParameterizedTest
    @MethodSource("ordered")
    void maxAndMinFollowTheOrderOfEachType(DataType type, Object[] ascending) {
        FieldAggregator max = of("max", type);
        FieldAggregator min = of("min", type);
        for (int i = 0; i < ascending.length; i++) {
            for (int j = 0; j < ascending.length; j++) {
                Object bigger = ascending[Math.max(i, j)];
                Object smaller = ascending[Math.min(i, j)];
                assertThat(max.agg(ascending[i], ascending[j])).as("max %s %s", i, j).isSameAs(bigger);
                assertThat(min.agg(ascending[i], ascending[j])).as("min %s %s", i, j).isSameAs(smaller);
            }
        }
    }

    @Test
    void nullNeverContributes() {
        assertThat(fold(of("max", DataTypes.INT()), null, 3, null, 1, null)).isEqualTo(3);
        assertThat(fold(of("min", DataTypes.INT()), null, 3, null, 1, null)).isEqualTo(1);
        assertThat(fold(of("max", DataTypes.INT()), null, null)).isNull();
    }

    @Test
    void tiesKeepTheAccumulatorForMaxAndTakeTheInputForMin() {
        Object acc = str("x");
        Object input = str("x");
        assertThat(of("max", DataTypes.STRING()).agg(acc, input)).isSameAs(acc);
        assertThat(of("min", DataTypes.STRING()).agg(acc, input)).isSameAs(input);
    }

    @Test
    void typesWithoutOrderFailOnlyWhenTwoValuesMeet() {
        FieldAggregator max = of("max", DataTypes.BOOLEAN());
        assertThat(max.agg(null, true)).isEqualTo(true);
        assertThatThrownBy(() -> max.agg(true, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("column 'c'").hasMessageContaining("BOOLEAN");
        assertThatThrownBy(() -> of("min", DataTypes.ARRAY(DataTypes.INT())).agg(array(1), array(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ARRAY<INT>");
    }
}
