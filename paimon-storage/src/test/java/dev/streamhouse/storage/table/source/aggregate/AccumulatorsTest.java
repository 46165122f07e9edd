package dev.streamhouse.storage.table.source.aggregate;

import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.junit.jupiter.api.Test;

import java.util.List;

/** The partial results of {@link LocalAggregate}s, as Flink's local aggregation computes them. */
class AccumulatorsTest {
    private static final RowType ROW = new RowType(List.of(FIELD(0, "tn", DataTypes.TINYINT()),
            FIELD(1, "i", DataTypes.INT()), FIELD(2, "f", DataTypes.FLOAT()), FIELD(3, "d", DataTypes.DOUBLE()),
            FIELD(4, "s", DataTypes.STRING())));

    private static GenericRow aggregate(List<LocalAggregate> aggregates, GenericRow... rows) {
        Accumulators accumulators = new Accumulators(ROW, aggregates);
        for (GenericRow row : rows) {
            accumulators.add(row);
        }
        return accumulators.result();
    }

    private static LocalAggregate of(LocalAggregate.Kind kind, int field) {
        return new LocalAggregate(kind, field);
    }

    @Test
    void sumsWrapInTheColumnsTypeAndAvgSumsDoNot() {
        GenericRow[] rows = {GenericRow.of((byte) 120, Integer.MAX_VALUE, 0.1f, 0.1, null),
                GenericRow.of((byte) 10, 1, 0.2f, 0.2, null), GenericRow.of(null, null, null, null, null)};
        GenericRow r = aggregate(List.of(of(LocalAggregate.Kind.SUM, 0), of(LocalAggregate.Kind.SUM, 1),
                of(LocalAggregate.Kind.AVG_SUM, 1), of(LocalAggregate.Kind.SUM, 2), of(LocalAggregate.Kind.AVG_SUM, 2),
                of(LocalAggregate.Kind.COUNT, 1), LocalAggregate.countStar()), rows);
        assertThat(r.byteAt(0)).isEqualTo((byte) (120 + 10));
        assertThat(r.intAt(1)).isEqualTo(Integer.MIN_VALUE);
        assertThat(r.longAt(2)).isEqualTo(Integer.MAX_VALUE + 1L);
        assertThat(r.floatAt(3)).isEqualTo(0.1f + 0.2f); // in float, not double, precision
        assertThat(r.doubleAt(4)).isEqualTo((double) 0.1f + (double) 0.2f);
        assertThat(r.longAt(5)).isEqualTo(2);
        assertThat(r.longAt(6)).isEqualTo(3);
    }

    @Test
    void emptyOrNullInputsGiveNullExceptForCountsAndSum0() {
        GenericRow nulls = GenericRow.of(null, null, null, null, null);
        GenericRow r = aggregate(List.of(of(LocalAggregate.Kind.SUM, 1), of(LocalAggregate.Kind.SUM0, 1),
                of(LocalAggregate.Kind.MIN, 3), of(LocalAggregate.Kind.MAX, 0), of(LocalAggregate.Kind.COUNT, 4),
                LocalAggregate.countStar()), nulls);
        assertThat(r.isNullAt(0)).isTrue();
        assertThat(r.intAt(1)).isZero();
        assertThat(r.isNullAt(2)).isTrue();
        assertThat(r.isNullAt(3)).isTrue();
        assertThat(r.longAt(4)).isZero();
        assertThat(r.longAt(5)).isEqualTo(1);
        assertThat(aggregate(List.of(LocalAggregate.countStar(), of(LocalAggregate.Kind.MAX, 1))).isNullAt(1)).isTrue();
    }

    @Test
    void extremesTakeOnlyStrictlyGreaterOrSmallerValuesSoANaNNeverReplacesOne() {
        GenericRow[] rows = {GenericRow.of(null, 5, 1f, 1.0, BinaryString.fromString("x")),
                GenericRow.of(null, -3, Float.NaN, Double.NaN, null), GenericRow.of(null, 7, 2f, 2.0, null)};
        GenericRow r = aggregate(List.of(of(LocalAggregate.Kind.MIN, 1), of(LocalAggregate.Kind.MAX, 1),
                of(LocalAggregate.Kind.MAX, 2), of(LocalAggregate.Kind.MIN, 3)), rows);
        assertThat(r.intAt(0)).isEqualTo(-3);
        assertThat(r.intAt(1)).isEqualTo(7);
        assertThat(r.floatAt(2)).isEqualTo(2f);
        assertThat(r.doubleAt(3)).isEqualTo(1.0);
    }

    @Test
    void unsupportedColumnsAreRefused() {
        assertThat(LocalAggregate.supports(LocalAggregate.Kind.COUNT, DataTypes.STRING())).isTrue();
        assertThat(LocalAggregate.supports(LocalAggregate.Kind.SUM, DataTypes.STRING())).isFalse();
        assertThat(LocalAggregate.supports(LocalAggregate.Kind.SUM, DataTypes.DECIMAL(10, 2))).isFalse();
        assertThat(LocalAggregate.supports(LocalAggregate.Kind.MAX, DataTypes.DATE())).isTrue();
        assertThat(LocalAggregate.supports(LocalAggregate.Kind.SUM, DataTypes.DATE())).isFalse();
        assertThatThrownBy(() -> new Accumulators(ROW, List.of(of(LocalAggregate.Kind.SUM, 4))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column s");
        assertThatThrownBy(() -> new LocalAggregate(LocalAggregate.Kind.SUM, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
