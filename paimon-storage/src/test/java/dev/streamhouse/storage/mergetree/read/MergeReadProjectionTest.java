package dev.streamhouse.storage.mergetree.read;

import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

class MergeReadProjectionTest {

    private static TableSchema schema(String... options) {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i < options.length; i += 2) {
            o.put(options[i], options[i + 1]);
        }
        return new TableSchema(3, 0, List.of(new DataField(0, "id", INT().notNull()), new DataField(1, "v", STRING()),
                new DataField(2, "s1", INT()), new DataField(3, "s2", INT())), 3, List.of(), List.of("id"), o, null, 0);
    }

    private static KeyValue version(long seq, Object... value) {
        return new KeyValue().replace(GenericRow.of(1), seq, RowKind.INSERT, GenericRow.of(value));
    }

    @Test
    void withoutSequenceFieldsReadsExactlyTheProjection() {
        MergeReadProjection p = MergeReadProjection.of(schema(), new int[] {1});
        assertThat(p.readProjection()).containsExactly(1);
        assertThat(p.widened()).isFalse();
        assertThat(p.versionOrder().usesSequenceFields()).isFalse();
    }

    @Test
    void appendsMissingSequenceFieldsAndOrdersByThem() {
        MergeReadProjection p = MergeReadProjection.of(schema("sequence.field", "s2, s1"), new int[] {1, 2});
        // s1 is projected (position 1), s2 is appended (position 2)
        assertThat(p.readProjection()).containsExactly(1, 2, 3);
        assertThat(p.widened()).isTrue();
        VersionOrder order = p.versionOrder();
        // compared by s2 first, then s1, then the sequence number; NULL is smallest
        assertThat(order.compare(version(9, "a", 100, 1), version(0, "b", 0, 2))).isNegative();
        assertThat(order.compare(version(0, "a", 5, 2), version(9, "b", 1, 2))).isPositive();
        assertThat(order.compare(version(0, "a", 1, 2), version(9, "b", 1, 2))).isNegative();
        assertThat(order.compare(version(0, "a", 1, null), version(9, "b", 1, 0))).isNegative();
    }

    @Test
    void descendingReversesFieldsButNotTheSequenceNumberTieBreak() {
        VersionOrder order = MergeReadProjection.of(
                schema("sequence.field", "s1", "sequence.field.sort-order", "descending"), new int[] {0}).versionOrder();
        // value rows hold (id, s1)
        assertThat(order.compare(version(0, 1, 5), version(9, 1, 3))).isNegative();
        assertThat(order.compare(version(0, 1, null), version(9, 1, 3))).isPositive();
        assertThat(order.compare(version(0, 1, 3), version(9, 1, 3))).isNegative();
    }

    @Test
    void invalidOptionsAreRefusedNamingThem() {
        assertThatThrownBy(() -> MergeReadProjection.of(schema("sequence.field", "nope"), new int[] {0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sequence.field")
                .hasMessageContaining("'nope'");
        assertThatThrownBy(() -> MergeReadProjection.of(
                schema("sequence.field", "s1", "sequence.field.sort-order", "sideways"), new int[] {0}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sequence.field.sort-order");
    }
}
