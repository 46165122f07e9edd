package dev.streamhouse.storage.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * Moving a predicate onto another row type (e.g. table fields to partition fields). Dropping whole
 * conjuncts only widens the filter and is safe; dropping part of an OR would not be.
 */
class PickByFieldMappingTest {

    // table (dt STRING, id INT, name STRING); the partition row is (dt)
    static final RowType TABLE = new RowType(List.of(
            new DataField(0, "dt", DataTypes.STRING()),
            new DataField(1, "id", DataTypes.INT()),
            new DataField(2, "name", DataTypes.STRING())));
    static final int[] TO_PARTITION = {0, -1, -1};
    static final int[] TO_REORDERED = {2, 0, -1};

    private final PredicateBuilder table = new PredicateBuilder(TABLE);
    private final PredicateBuilder partition = new PredicateBuilder(TABLE.project(new int[] {0}));

    @Test
    void keepsOnlyConjunctsOnMappedFields() {
        Predicate filter = PredicateBuilder.and(
                table.equal(0, "2024-01-01"), table.greaterThan(1, 5), table.isNotNull(2));

        Optional<Predicate> picked = PredicateBuilder.pickByFieldMapping(filter, TO_PARTITION);

        assertThat(picked).contains(partition.equal(0, "2024-01-01"));
    }

    @Test
    void dropsAWholeOrThatMentionsAnUnmappedField() {
        Predicate filter = PredicateBuilder.and(
                table.greaterOrEqual(0, "2024-01-01"),
                PredicateBuilder.or(table.equal(0, "2024-02-01"), table.equal(1, 7)));

        Optional<Predicate> picked = PredicateBuilder.pickByFieldMapping(filter, TO_PARTITION);

        assertThat(picked).contains(partition.greaterOrEqual(0, "2024-01-01"));
        // Had the OR been reduced to dt = '2024-02-01', partition 2024-01-05 (with id 7) would be lost.
        GenericRow partitionRow = GenericRow.of(BinaryString.fromString("2024-01-05"));
        assertThat(picked.get().test(partitionRow)).isTrue();
    }

    @Test
    void keepsAnOrWhoseFieldsAreAllMapped() {
        Predicate filter = PredicateBuilder.or(table.equal(0, "a"), table.equal(0, "b"));

        assertThat(PredicateBuilder.pickByFieldMapping(filter, TO_PARTITION))
                .contains(PredicateBuilder.or(partition.equal(0, "a"), partition.equal(0, "b")));
    }

    @Test
    void emptyWhenNoConjunctSurvives() {
        Predicate filter = PredicateBuilder.and(table.equal(1, 1), table.equal(2, "x"));

        assertThat(PredicateBuilder.pickByFieldMapping(filter, TO_PARTITION)).isEmpty();
        assertThat(PredicateBuilder.pickByFieldMapping(table.equal(1, 1), TO_PARTITION)).isEmpty();
    }

    @Test
    void rewritesFieldPositions() {
        Predicate filter = PredicateBuilder.and(table.equal(0, "x"), table.lessThan(1, 3), table.isNull(2));

        Predicate picked = PredicateBuilder.pickByFieldMapping(filter, TO_REORDERED).orElseThrow();

        // reordered row: (id, -, dt)
        assertThat(PredicateBuilder.splitAnd(picked)).hasSize(2);
        assertThat(picked.test(GenericRow.of(2, null, BinaryString.fromString("x")))).isTrue();
        assertThat(picked.test(GenericRow.of(3, null, BinaryString.fromString("x")))).isFalse();
        assertThat(picked.test(GenericRow.of(2, null, BinaryString.fromString("y")))).isFalse();
    }

    @Test
    void fieldsBeyondTheMappingAreUnmapped() {
        Predicate filter = PredicateBuilder.and(table.equal(0, "x"), table.equal(2, "n"));

        assertThat(PredicateBuilder.pickByFieldMapping(filter, new int[] {0}))
                .contains(partition.equal(0, "x"));
        assertThat(PredicateBuilder.transformFieldMapping(table.equal(2, "n"), new int[] {0})).isEmpty();
    }

    @Test
    void transformFieldMappingIsAllOrNothing() {
        Predicate mixed = PredicateBuilder.and(table.equal(0, "x"), table.equal(1, 1));

        assertThat(PredicateBuilder.transformFieldMapping(mixed, TO_PARTITION)).isEmpty();
        assertThat(PredicateBuilder.transformFieldMapping(table.equal(0, "x"), TO_PARTITION))
                .contains(partition.equal(0, "x"));
    }
}
