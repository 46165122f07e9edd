package dev.streamhouse.storage.mergetree.aggregate;

import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.map;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.of;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.str;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class MergeMapAggregatorTest {
    private static final DataType STRING_TO_INT = DataTypes.MAP(DataTypes.STRING(), DataTypes.INT());

    @Test
    void laterValuesWinAndKeysComeInPaimonsHashOrder() {
        FieldAggregator merge = of("merge_map", STRING_TO_INT);
        GenericMap merged = (GenericMap) merge.agg(map(str("b"), 1, str("a"), 1), map(str("c"), 1, str("zz"), 2,
                str("a"), null));
        // The order Apache Paimon 1.3.1 gives these keys (a HashMap of its BinaryStrings).
        assertThat(keys(merged)).containsExactly(str("a"), str("c"), str("zz"), str("b"));
        assertThat(merged.toJavaMap().get(str("a"))).as("a null value replaces too").isNull();
        assertThat(merged.toJavaMap().get(str("zz"))).isEqualTo(2);
    }

    @Test
    void nullNeverContributes() {
        FieldAggregator merge = of("merge_map", STRING_TO_INT);
        GenericMap only = map(str("x"), 1);
        assertThat(merge.agg(null, only)).isSameAs(only);
        assertThat(merge.agg(only, null)).isSameAs(only);
        assertThat(merge.agg(null, null)).isNull();
    }

    @Test
    void retractionRemovesTheRetractedKeysWhateverTheirValues() {
        FieldAggregator merge = of("merge_map", DataTypes.MAP(DataTypes.INT(), DataTypes.STRING()));
        InternalMap left = (InternalMap) merge.retract(map(20, str("t"), 3, str("c"), 17, str("s")), map(3, str("other")));
        assertThat(keys(left)).containsExactly(17, 20);
        GenericMap acc = map(1, str("a"));
        assertThat(merge.retract(acc, map())).isSameAs(acc);
        assertThat(merge.retract(acc, null)).isSameAs(acc);
        assertThat(merge.retract(null, acc)).isNull();
        assertThat(((InternalMap) merge.retract(acc, map(1, null))).size()).isZero();
    }

    @Test
    void binaryKeysNeverMatchAsInPaimon() {
        FieldAggregator merge = of("merge_map", DataTypes.MAP(DataTypes.BYTES(), DataTypes.INT()));
        InternalMap merged = (InternalMap) merge.agg(map(new byte[] {1}, 1), map(new byte[] {1}, 2));
        assertThat(merged.size()).isEqualTo(2);
        assertThat(((InternalMap) merge.retract(merged, map(new byte[] {1}, 1))).size()).isEqualTo(2);
    }

    private static List<Object> keys(InternalMap m) {
        List<Object> out = new ArrayList<>(((GenericMap) m).toJavaMap().keySet());
        return out;
    }
}
