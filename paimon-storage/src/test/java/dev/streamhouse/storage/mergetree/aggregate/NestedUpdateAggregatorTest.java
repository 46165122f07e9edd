package dev.streamhouse.storage.mergetree.aggregate;

import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.array;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.of;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.row;
import static dev.streamhouse.storage.mergetree.aggregate.Aggregators.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.options.InvalidOptionsException;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class NestedUpdateAggregatorTest {
    private static final DataType ROWS = DataTypes.ARRAY(DataTypes.ROW(
            DataTypes.FIELD(1, "k", DataTypes.INT()), DataTypes.FIELD(2, "v", DataTypes.STRING()),
            DataTypes.FIELD(3, "tags", DataTypes.ARRAY(DataTypes.STRING()))));

    @Test
    void withoutKeysRowsAreAppendedAndNullRowsDropped() {
        FieldAggregator nested = of("nested_update", ROWS);
        assertThat(nested.agg(array(row(1, str("a"), null), null), array(null, row(1, str("a"), null))))
                .isEqualTo(array(row(1, str("a"), null), row(1, str("a"), null)));
        GenericArray only = array((Object) null);
        assertThat(nested.agg(null, only)).isSameAs(only);
        assertThat(nested.agg(only, null)).isSameAs(only);
    }

    @Test
    void withoutKeysARetractionRemovesEveryEqualRow() {
        FieldAggregator nested = of("nested_update", ROWS);
        GenericRow a = row(1, str("a"), array(str("t")));
        GenericRow b = row(2, str("b"), null);
        assertThat(nested.retract(array(a, b, row(1, str("a"), array(str("t"))), null), array(a, null)))
                .isEqualTo(array(b));
        assertThat(nested.retract(null, array(a))).isNull();
        GenericArray acc = array(a);
        assertThat(nested.retract(acc, null)).isSameAs(acc);
    }

    @Test
    void withKeysRowsAreUpsertedInTheOrderOfTheirBinaryKeys() {
        FieldAggregator nested = of("nested_update", ROWS, "fields.c.nested-key", "k");
        GenericArray merged = (GenericArray) nested.agg(array(row(1, str("a"), null), row(2, str("b"), null)),
                array(row(3, str("c"), null), row(1, str("A"), null)));
        assertThat(merged).isEqualTo(new GenericArray(hashOrder(
                row(1, str("A"), null), row(2, str("b"), null), row(3, str("c"), null)).toArray()));
        assertThat(merged.size()).isEqualTo(3);
    }

    @Test
    void withKeysARetractionDeletesTheKeys() {
        FieldAggregator nested = of("nested_update", ROWS, "fields.c.nested-key", " v , k");
        GenericArray left = (GenericArray) nested.retract(array(row(1, str("a"), null), row(2, str("b"), null)),
                array(row(1, str("a"), array(str("ignored"))), row(2, str("other"), null)));
        assertThat(left).isEqualTo(array(row(2, str("b"), null)));
    }

    @Test
    void theCountLimitCapsWhatMergingAdds() {
        FieldAggregator nested = of("nested_update", ROWS, "fields.c.count-limit", "3");
        GenericArray full = array(row(1, null, null), null, row(2, null, null));
        assertThat(nested.agg(full, array(row(9, null, null)))).as("NULLs count towards the limit").isSameAs(full);
        assertThat(nested.agg(array(row(1, null, null)), array(null, row(2, null, null), row(3, null, null),
                row(4, null, null)))).isEqualTo(array(row(1, null, null), row(2, null, null), row(3, null, null)));
    }

    @Test
    void theCountLimitAppliesBeforeUpserting() {
        FieldAggregator nested = of("nested_update", ROWS, "fields.c.nested-key", "k", "fields.c.count-limit", "2");
        GenericArray merged = (GenericArray) nested.agg(array(row(1, str("a"), null)),
                array(row(2, str("b"), null), row(1, str("A"), null)));
        assertThat(merged.size()).as("the update of key 1 came after the limit").isEqualTo(2);
        assertThat(merged.toObjectArray()).contains(row(1, str("a"), null));
    }

    @Test
    void refusesKeysThatAreNotFieldsOrHaveNestedTypes() {
        assertThatThrownBy(() -> of("nested_update", ROWS, "fields.c.nested-key", "k,missing"))
                .isInstanceOf(InvalidOptionsException.class)
                .hasMessageContaining("'fields.c.nested-key'").hasMessageContaining("'missing'")
                .hasMessageContaining("[k, v, tags]");
        assertThatThrownBy(() -> of("nested_update", ROWS, "fields.c.nested-key", "tags"))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("ARRAY<STRING>");
    }

    @Test
    void withoutKeysRetractedRowsMatchFieldByField() {
        DataType doubles = DataTypes.ARRAY(DataTypes.ROW(DataTypes.FIELD(1, "d", DataTypes.DOUBLE())));
        FieldAggregator nested = of("nested_update", doubles);
        assertThat(nested.retract(array(row(Double.NaN), row(-0.0), row((Object) null)), array(row(Double.NaN),
                row(0.0), row((Object) null)))).as("NaN == NaN is false, -0.0 == 0.0 is true, NULL matches NULL")
                .isEqualTo(array(row(Double.NaN)));
    }

    /** The rows in the iteration order of a HashMap keyed by their (INT) key as a binary row. */
    private static List<Object> hashOrder(GenericRow... rows) {
        BinaryRowConverter keys = new BinaryRowConverter(List.of(DataTypes.INT()), new int[] {0});
        Map<BinaryRow, GenericRow> byKey = new HashMap<>();
        for (GenericRow r : rows) {
            byKey.put(keys.toBinaryRow(r), r);
        }
        return new ArrayList<>(byKey.values());
    }
}
