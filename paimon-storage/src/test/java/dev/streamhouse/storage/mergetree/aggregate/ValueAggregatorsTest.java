package dev.streamhouse.storage.mergetree.aggregate;

import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.fold;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.of;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.str;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.types.DataTypes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** last_value, last_non_null_value, first_value, first_non_null_value and primary-key. */
class ValueAggregatorsTest {

    @Test
    void lastValueTakesEveryInputAndRetractsToNull() {
        FieldAggregator last = of("last_value", DataTypes.STRING());
        assertThat(fold(last, str("a"), str("b"))).isEqualTo(str("b"));
        assertThat(last.agg(str("a"), null)).isNull();
        assertThat(last.retract(str("a"), str("b"))).isNull();
        assertThat(last.retract(str("a"), null)).isNull();
        assertThat(last.aggReversed(str("new"), str("old"))).isEqualTo(str("new"));
    }

    @Test
    void lastNonNullValueSkipsNullsAndRetractsNonNullsToNull() {
        FieldAggregator last = of("last_non_null_value", DataTypes.INT());
        assertThat(fold(last, 1, null, 2, null)).isEqualTo(2);
        assertThat(last.retract(5, 9)).isNull();
        assertThat(last.retract(5, null)).isEqualTo(5);
        assertThat(last.aggReversed(2, 1)).isEqualTo(2);
        assertThat(last.aggReversed(null, 1)).isEqualTo(1);
    }

    @Test
    void firstValueTakesTheFirstInputEvenNullUntilReset() {
        FieldAggregator first = of("first_value", DataTypes.INT());
        assertThat(fold(first, null, 1, 2)).isNull();
        first.reset();
        assertThat(fold(first, 1, null, 2)).isEqualTo(1);
        first.reset();
        assertThat(first.agg(7, 3)).as("the first input replaces whatever the accumulator was").isEqualTo(3);
    }

    @Test
    void firstValueReversedKeepsTheAccumulatorOnceThenTakesOlderInputs() {
        FieldAggregator first = of("first_value", DataTypes.INT());
        assertThat(first.aggReversed(5, 4)).isEqualTo(5);
        assertThat(first.aggReversed(5, 4)).isEqualTo(4);
        assertThat(first.aggReversed(4, 3)).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"first_non_null_value", "first_not_null_value"})
    void firstNonNullValueTakesTheFirstNonNullInputUntilReset(String function) {
        FieldAggregator first = of(function, DataTypes.INT());
        assertThat(fold(first, null, null, 1, 2, null)).isEqualTo(1);
        assertThat(first.agg(1, 3)).isEqualTo(1);
        first.reset();
        assertThat(first.agg(9, null)).as("null leaves the accumulator").isEqualTo(9);
        assertThat(first.agg(9, 4)).as("the first non-null input replaces it").isEqualTo(4);
        assertThat(first.agg(4, 5)).isEqualTo(4);
    }

    @Test
    void primaryKeyTakesTheInputBothWays() {
        FieldAggregator key = of("primary-key", DataTypes.BIGINT());
        assertThat(key.agg(1L, 2L)).isEqualTo(2L);
        assertThat(key.retract(1L, 3L)).isEqualTo(3L);
        assertThat(key.agg(1L, null)).isNull();
    }
}
