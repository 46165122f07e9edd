package dev.streamhouse.storage.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * Predicates tested against min/max/null-count statistics (docs/format.md §6.5): they may answer false only
 * when no row can match, and must answer true whenever something is unknown.
 */
class PredicateStatsTest {

    static final RowType TYPE = new RowType(List.of(
            new DataField(0, "id", DataTypes.INT()),
            new DataField(1, "name", DataTypes.STRING())));
    static final int ID = 0;
    static final int NAME = 1;

    private final PredicateBuilder builder = new PredicateBuilder(TYPE);

    /** Stats of {@code rowCount} rows: min and max of (id, name), null counts per column. */
    private record Stats(long rowCount, InternalRow min, InternalRow max, Long[] nullCounts) {
        boolean mayMatch(Predicate p) {
            return p.test(rowCount, min, max, nullCounts);
        }
    }

    private static Stats ids(long rowCount, Integer min, Integer max, Long nullCount) {
        return new Stats(rowCount, GenericRow.of(min, null), GenericRow.of(max, null), new Long[] {nullCount, null});
    }

    private static Stats names(long rowCount, String min, String max, Long nullCount) {
        return new Stats(rowCount, GenericRow.of(null, BinaryString.fromString(min)),
                GenericRow.of(null, BinaryString.fromString(max)), new Long[] {null, nullCount});
    }

    private List<Predicate> everyLeafOnId() {
        return List.of(
                builder.equal(ID, 5), builder.notEqual(ID, 5), builder.lessThan(ID, 5), builder.lessOrEqual(ID, 5),
                builder.greaterThan(ID, 5), builder.greaterOrEqual(ID, 5), builder.in(ID, List.of(1, 5)),
                builder.notIn(ID, List.of(1, 5)), builder.isNull(ID), builder.isNotNull(ID));
    }

    @Test
    void unknownStatisticsNeverPrune() {
        List<Stats> unknown = List.of(
                ids(10, null, null, null),
                new Stats(10, GenericRow.of(null, null), GenericRow.of(null, null), null),
                new Stats(10, GenericRow.of(), GenericRow.of(), new Long[0]),
                ids(10, null, 7, null),
                ids(10, 7, null, null));
        for (Stats stats : unknown) {
            for (Predicate p : everyLeafOnId()) {
                assertThat(stats.mayMatch(p)).as("%s with %s", p, Arrays.toString(stats.nullCounts())).isTrue();
            }
            assertThat(stats.mayMatch(builder.startsWith(NAME, "x"))).isTrue();
        }
    }

    @Test
    void aHalfKnownRangeDoesNotPruneComparisons() {
        for (Stats stats : List.of(ids(10, null, 7, 0L), ids(10, 7, null, 0L))) {
            for (Predicate p : everyLeafOnId()) {
                boolean isNull = p.equals(builder.isNull(ID));
                assertThat(stats.mayMatch(p)).as("%s", p).isEqualTo(!isNull);
            }
        }
    }

    @Test
    void anAllNullColumnPrunesEveryComparisonButNotIsNull() {
        Stats allNull = ids(10, null, null, 10L);

        for (Predicate p : everyLeafOnId()) {
            boolean isNull = p.equals(builder.isNull(ID));
            assertThat(allNull.mayMatch(p)).as(p.toString()).isEqualTo(isNull);
        }
        assertThat(names(3, null, null, 3L).mayMatch(builder.startsWith(NAME, ""))).isFalse();
    }

    @Test
    void nullCountsDecideNullChecks() {
        assertThat(ids(10, 1, 9, 0L).mayMatch(builder.isNull(ID))).isFalse();
        assertThat(ids(10, 1, 9, 1L).mayMatch(builder.isNull(ID))).isTrue();
        assertThat(ids(10, 1, 9, 9L).mayMatch(builder.isNotNull(ID))).isTrue();
        assertThat(ids(10, null, null, 10L).mayMatch(builder.isNotNull(ID))).isFalse();
        assertThat(ids(10, 1, 9, null).mayMatch(builder.isNull(ID))).isTrue();
        assertThat(ids(10, 1, 9, null).mayMatch(builder.isNotNull(ID))).isTrue();
    }

    @Test
    void rangesPruneComparisonsAtTheirBoundaries() {
        Stats fiveToNine = ids(10, 5, 9, 0L);

        assertThat(fiveToNine.mayMatch(builder.equal(ID, 4))).isFalse();
        assertThat(fiveToNine.mayMatch(builder.equal(ID, 5))).isTrue();
        assertThat(fiveToNine.mayMatch(builder.equal(ID, 9))).isTrue();
        assertThat(fiveToNine.mayMatch(builder.equal(ID, 10))).isFalse();
        assertThat(fiveToNine.mayMatch(builder.lessThan(ID, 5))).isFalse();
        assertThat(fiveToNine.mayMatch(builder.lessThan(ID, 6))).isTrue();
        assertThat(fiveToNine.mayMatch(builder.lessOrEqual(ID, 4))).isFalse();
        assertThat(fiveToNine.mayMatch(builder.lessOrEqual(ID, 5))).isTrue();
        assertThat(fiveToNine.mayMatch(builder.greaterThan(ID, 9))).isFalse();
        assertThat(fiveToNine.mayMatch(builder.greaterThan(ID, 8))).isTrue();
        assertThat(fiveToNine.mayMatch(builder.greaterOrEqual(ID, 10))).isFalse();
        assertThat(fiveToNine.mayMatch(builder.greaterOrEqual(ID, 9))).isTrue();
        assertThat(fiveToNine.mayMatch(builder.in(ID, List.of(1, 2, 10)))).isFalse();
        assertThat(fiveToNine.mayMatch(builder.in(ID, List.of(1, 7, 10)))).isTrue();
    }

    @Test
    void notEqualAndNotInPruneOnlyConstantColumnsOfAnExcludedValue() {
        Stats constant3 = ids(10, 3, 3, 0L);
        Stats threeToFour = ids(10, 3, 4, 0L);

        assertThat(constant3.mayMatch(builder.notEqual(ID, 3))).isFalse();
        assertThat(constant3.mayMatch(builder.notEqual(ID, 4))).isTrue();
        assertThat(threeToFour.mayMatch(builder.notEqual(ID, 3))).isTrue();
        assertThat(constant3.mayMatch(builder.notIn(ID, List.of(3, 4)))).isFalse();
        assertThat(constant3.mayMatch(builder.notIn(ID, List.of(4)))).isTrue();
        assertThat(threeToFour.mayMatch(builder.notIn(ID, List.of(3, 4)))).isTrue();
    }

    @Test
    void constantColumnWithSomeNullsStillPrunesNotEqual() {
        // Null rows never satisfy "id <> 3", so a column of 3s and NULLs has no match.
        assertThat(ids(10, 3, 3, 4L).mayMatch(builder.notEqual(ID, 3))).isFalse();
    }

    @Test
    void startsWithUsesTheRangeOfStrings() {
        Stats appleToBanana = names(10, "apple", "banana", 0L);

        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, "a"))).isTrue();
        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, "ap"))).isTrue();
        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, "apple"))).isTrue();
        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, "b"))).isTrue();
        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, "ban"))).isTrue();
        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, "az"))).isTrue();
        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, ""))).isTrue();
        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, "aa"))).isFalse();
        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, "apples"))).isTrue();
        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, "bananas"))).isFalse();
        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, "c"))).isFalse();
        assertThat(appleToBanana.mayMatch(builder.startsWith(NAME, "A"))).isFalse();
    }

    @Test
    void startsWithKeepsFilesWhoseTruncatedMaxIsAnUpperBound() {
        // docs/format.md §6.5: max 'a-much-longer-name-than-sixteen-chars' is stored as 'a-much-longer-nb'.
        Stats truncated = names(2, "a-much-longer-na", "a-much-longer-nb", 0L);

        assertThat(truncated.mayMatch(builder.startsWith(NAME, "a-much-longer-name"))).isTrue();
        assertThat(truncated.mayMatch(builder.equal(NAME, "a-much-longer-name-than-sixteen-chars"))).isTrue();
    }

    @Test
    void startsWithOnNonAsciiRanges() {
        Stats range = names(10, "été", "été-z", 0L);

        assertThat(range.mayMatch(builder.startsWith(NAME, "ét"))).isTrue();
        assertThat(range.mayMatch(builder.startsWith(NAME, "z"))).isFalse();
        assertThat(range.mayMatch(builder.startsWith(NAME, "日"))).isFalse();
    }

    @Test
    void andPrunesIfAnyChildPrunesAndOrOnlyIfAllDo() {
        Stats fiveToNine = ids(10, 5, 9, 0L);
        Predicate keeps = builder.equal(ID, 7);
        Predicate prunes = builder.equal(ID, 1);

        assertThat(fiveToNine.mayMatch(PredicateBuilder.and(keeps, prunes))).isFalse();
        assertThat(fiveToNine.mayMatch(PredicateBuilder.and(keeps, builder.greaterThan(ID, 6)))).isTrue();
        assertThat(fiveToNine.mayMatch(PredicateBuilder.or(keeps, prunes))).isTrue();
        assertThat(fiveToNine.mayMatch(PredicateBuilder.or(prunes, builder.greaterThan(ID, 100)))).isFalse();
    }

    @Test
    void binaryRowStatisticsWithNullFieldsAndNonCompactTypes() {
        RowType type = new RowType(List.of(
                new DataField(0, "price", DataTypes.DECIMAL(20, 2)),
                new DataField(1, "ts", DataTypes.TIMESTAMP(6)),
                new DataField(2, "note", DataTypes.STRING())));
        PredicateBuilder b = new PredicateBuilder(type);
        BinaryRowConverter converter = new BinaryRowConverter(type.fieldTypes());
        Timestamp early = Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1_000));
        Timestamp late = Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 1, 31, 0, 0));
        BinaryRow min = converter.toBinaryRow(new Object[] {
                Decimal.fromBigDecimal(new BigDecimal("1.00"), 20, 2), early, null});
        BinaryRow max = converter.toBinaryRow(new Object[] {
                Decimal.fromBigDecimal(new BigDecimal("99.99"), 20, 2), late, null});
        Long[] nullCounts = {0L, 0L, 2L};

        assertThat(b.greaterThan(0, new BigDecimal("99.99")).test(10, min, max, nullCounts)).isFalse();
        assertThat(b.greaterThan(0, new BigDecimal("99.98")).test(10, min, max, nullCounts)).isTrue();
        assertThat(b.lessThan(1, early).test(10, min, max, nullCounts)).isFalse();
        assertThat(b.lessThan(1, Timestamp.fromEpochMillis(early.millisecond(), early.nanoOfMillisecond() + 1))
                .test(10, min, max, nullCounts)).isTrue();
        assertThat(b.equal(2, "anything").test(10, min, max, nullCounts)).as("unknown min/max").isTrue();
        assertThat(b.isNull(2).test(10, min, max, nullCounts)).isTrue();
    }

    // ---- the safety property, on random data ----

    @Test
    void statisticsNeverPruneAFileWithAMatchingRow() {
        Random random = new Random(20240102L);
        for (int file = 0; file < 300; file++) {
            List<GenericRow> rows = new ArrayList<>();
            int rowCount = 1 + random.nextInt(6);
            for (int r = 0; r < rowCount; r++) {
                Integer id = random.nextInt(4) == 0 ? null : random.nextInt(11) - 5;
                String name = random.nextInt(4) == 0 ? null : randomName(random);
                rows.add(GenericRow.of(id, BinaryString.fromString(name)));
            }
            Stats stats = statsOf(rows);
            for (Predicate p : randomPredicates(random)) {
                boolean anyMatch = rows.stream().anyMatch(p::test);
                if (anyMatch) {
                    assertThat(stats.mayMatch(p)).as("%s pruned rows %s", p, rows).isTrue();
                }
            }
        }
    }

    private static String randomName(Random random) {
        String[] alphabet = {"a", "b", "é", "z", "日"};
        StringBuilder sb = new StringBuilder();
        int length = random.nextInt(4);
        for (int i = 0; i < length; i++) {
            sb.append(alphabet[random.nextInt(alphabet.length)]);
        }
        return sb.toString();
    }

    private List<Predicate> randomPredicates(Random random) {
        List<Predicate> out = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int v = random.nextInt(13) - 6;
            out.add(builder.equal(ID, v));
            out.add(builder.notEqual(ID, v));
            out.add(builder.lessThan(ID, v));
            out.add(builder.greaterOrEqual(ID, v));
            out.add(builder.in(ID, List.of(v, random.nextInt(13) - 6)));
            out.add(builder.notIn(ID, List.of(v, random.nextInt(13) - 6)));
            out.add(builder.startsWith(NAME, randomName(random)));
            out.add(builder.greaterThan(NAME, randomName(random)));
        }
        out.add(builder.isNull(ID));
        out.add(builder.isNotNull(NAME));
        out.add(PredicateBuilder.or(out.get(0), out.get(6)));
        out.add(PredicateBuilder.and(out.get(1), out.get(7)));
        return out;
    }

    private static Stats statsOf(List<GenericRow> rows) {
        Integer minId = null;
        Integer maxId = null;
        BinaryString minName = null;
        BinaryString maxName = null;
        long idNulls = 0;
        long nameNulls = 0;
        for (GenericRow r : rows) {
            if (r.isNullAt(ID)) {
                idNulls++;
            } else {
                int id = r.intAt(ID);
                minId = minId == null ? id : Math.min(minId, id);
                maxId = maxId == null ? id : Math.max(maxId, id);
            }
            if (r.isNullAt(NAME)) {
                nameNulls++;
            } else {
                BinaryString n = r.stringAt(NAME);
                minName = minName == null || n.compareTo(minName) < 0 ? n : minName;
                maxName = maxName == null || n.compareTo(maxName) > 0 ? n : maxName;
            }
        }
        return new Stats(rows.size(), GenericRow.of(minId, minName), GenericRow.of(maxId, maxName),
                new Long[] {idNulls, nameNulls});
    }
}
