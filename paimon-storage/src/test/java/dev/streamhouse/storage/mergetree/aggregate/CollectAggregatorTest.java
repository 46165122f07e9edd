package dev.streamhouse.storage.mergetree.aggregate;

import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.array;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.of;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.row;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import org.junit.jupiter.api.Test;

class CollectAggregatorTest {
    private static final DataType INTS = DataTypes.ARRAY(DataTypes.INT());
    private static final DataType ROWS = DataTypes.ARRAY(DataTypes.ROW(
            DataTypes.FIELD(1, "a", DataTypes.INT()), DataTypes.FIELD(2, "b", DataTypes.STRING())));

    @Test
    void concatenatesKeepingNullsAndDuplicates() {
        FieldAggregator collect = of("collect", INTS);
        assertThat(collect.agg(array(1, null), array(1, 2))).isEqualTo(array(1, null, 1, 2));
        GenericArray only = array(3);
        assertThat(collect.agg(null, only)).isSameAs(only);
        assertThat(collect.agg(only, null)).isSameAs(only);
        assertThat(collect.agg(null, null)).isNull();
    }

    @Test
    void reversedAppendsTheOlderElementsToo() {
        assertThat(of("collect", INTS).aggReversed(array(1), array(0))).isEqualTo(array(1, 0));
    }

    @Test
    void distinctAtomicElementsComeInPaimonsHashOrder() {
        FieldAggregator collect = of("collect", INTS, "fields.c.distinct", "true");
        // A HashSet of Integers iterates by value for small non-negative ints; null hashes to 0.
        assertThat(collect.agg(array(20, 3, 3), array(null, 17, 3))).isEqualTo(array(null, 17, 3, 20));
        assertThat(collect.agg(array(5, 5), null)).as("one side is enough to deduplicate").isEqualTo(array(5));
        assertThat(collect.agg(null, null)).isNull();
    }

    @Test
    void distinctStringsComeInPaimonsOrder() {
        FieldAggregator collect = of("collect", DataTypes.ARRAY(DataTypes.STRING()), "fields.c.distinct", "true");
        // The order Apache Paimon 1.3.1 gives these strings (a HashSet of its BinaryStrings).
        assertThat(collect.agg(array(str("pear"), str("apple")), array(str("fig"), str("apple"), str("kiwi"))))
                .isEqualTo(array(str("pear"), str("apple"), str("kiwi"), str("fig")));
    }

    @Test
    void distinctBinariesAreNeverDeduplicated() {
        FieldAggregator collect = of("collect", DataTypes.ARRAY(DataTypes.BYTES()), "fields.c.distinct", "true");
        InternalArray out = (InternalArray) collect.agg(array(new byte[] {1}), array(new byte[] {1}));
        assertThat(out.size()).isEqualTo(2);
    }

    @Test
    void distinctNestedElementsKeepTheAccumulatorAndAppendUnseenInputs() {
        FieldAggregator collect = of("collect", ROWS, "fields.c.distinct", "true");
        GenericArray acc = array(row(1, str("x")), row(1, str("x")));
        GenericArray input = array(row(2, str("y")), row(1, str("x")), null, row(2, str("y")), null);
        assertThat(collect.agg(acc, input))
                .isEqualTo(array(row(1, str("x")), row(1, str("x")), row(2, str("y")), null));
        assertThat(collect.agg(null, array(row(1, null), row(1, null)))).isEqualTo(array(row(1, null)));
    }

    @Test
    void distinctRowsCannotBeComparedWithANullRow() {
        FieldAggregator collect = of("collect", ROWS, "fields.c.distinct", "true");
        assertThatThrownBy(() -> collect.agg(array((Object) null), array(row(1, str("x")))))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("NULL row");
        DataType arrays = DataTypes.ARRAY(INTS);
        assertThat(of("collect", arrays, "fields.c.distinct", "true").agg(array((Object) null), array(array(1))))
                .isEqualTo(array(null, array(1)));
    }

    @Test
    void retractionRemovesOneEqualElementPerRetractedElement() {
        FieldAggregator collect = of("collect", INTS);
        assertThat(collect.retract(array(1, 2, 1, null, 3), array(1, null, 9))).isEqualTo(array(2, 1, 3));
        GenericArray acc = array(1);
        assertThat(collect.retract(acc, array())).isSameAs(acc);
        assertThat(collect.retract(acc, null)).isSameAs(acc);
        assertThat(collect.retract(null, array(1))).isNull();
    }

    @Test
    void retractionComparesNestedElementsByValue() {
        FieldAggregator collect = of("collect", ROWS);
        assertThat(collect.retract(array(row(1, str("x")), row(2, str("y"))), array(row(1, str("x")))))
                .isEqualTo(array(row(2, str("y"))));
    }

    @Test
    void retractionNeverMatchesBinaryElementsAsPaimonComparesArraysByIdentity() {
        FieldAggregator collect = of("collect", DataTypes.ARRAY(DataTypes.BYTES()));
        byte[] same = {1};
        InternalArray out = (InternalArray) collect.retract(array(same, new byte[] {2}), array(new byte[] {1}));
        assertThat(out.size()).isEqualTo(2);
        assertThat(((InternalArray) collect.retract(array(same), array((Object) same))).size()).isZero();
    }

    @Test
    void withoutDistinctNestedElementsRetractByTheirBytes() {
        DataType doubles = DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD(1, "d", DataTypes.DOUBLE())));
        FieldAggregator collect = of("collect", doubles);
        assertThat(collect.retract(array(row(Double.NaN), row(-0.0)), array(row(Double.NaN), row(0.0))))
                .as("NaN has the same bits as NaN, -0.0 not those of 0.0").isEqualTo(array(row(-0.0)));
    }

    @Test
    void withDistinctNestedRowsCompareFieldByField() {
        DataType doubles = DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD(1, "d", DataTypes.DOUBLE())));
        FieldAggregator collect = of("collect", doubles, "fields.c.distinct", "true");
        assertThat(collect.agg(array(row(Double.NaN), row(-0.0)), array(row(Double.NaN), row(0.0))))
                .as("NaN == NaN is false, -0.0 == 0.0 is true").isEqualTo(array(row(Double.NaN), row(-0.0), row(Double.NaN)));
        assertThat(collect.retract(array(row(Double.NaN), row(-0.0)), array(row(Double.NaN), row(0.0))))
                .isEqualTo(array(row(Double.NaN)));
    }

    @Test
    void withDistinctMapsMatchIgnoringOrderButNumbersOnlyWhereJavaCachesTheirBoxes() {
        DataType maps = DataTypes.ARRAY(DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()));
        FieldAggregator collect = of("collect", maps, "fields.c.distinct", "true");
        GenericArray acc = array(Aggregators.map(str("a"), 1, str("b"), 127), Aggregators.map(str("x"), 1000),
                Aggregators.map(str("n"), null));
        GenericArray input = array(Aggregators.map(str("b"), 127, str("a"), 1), Aggregators.map(str("x"), 1000),
                Aggregators.map(str("n"), null));
        GenericArray merged = (GenericArray) collect.agg(acc, input);
        assertThat(merged.size()).as("only the first map matches").isEqualTo(5);
        assertThat(collect.retract(acc, input)).isEqualTo(array(Aggregators.map(str("x"), 1000),
                Aggregators.map(str("n"), null)));
    }
}
