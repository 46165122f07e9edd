package dev.streamhouse.storage.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Predicates tested against single rows, with SQL NULL semantics. */
class PredicateRowTest {

    static final RowType TYPE = new RowType(List.of(
            new DataField(0, "id", DataTypes.INT()),
            new DataField(1, "name", DataTypes.STRING()),
            new DataField(2, "price", DataTypes.DECIMAL(10, 2)),
            new DataField(3, "dt", DataTypes.DATE()),
            new DataField(4, "ts", DataTypes.TIMESTAMP(3)),
            new DataField(5, "raw", DataTypes.BYTES()),
            new DataField(6, "big", DataTypes.BIGINT())));

    static final int ID = 0;
    static final int NAME = 1;
    static final int PRICE = 2;
    static final int DT = 3;
    static final int TS = 4;
    static final int RAW = 5;
    static final int BIG = 6;

    private final PredicateBuilder builder = new PredicateBuilder(TYPE);

    private static GenericRow row(Integer id, String name, String price, LocalDate dt, LocalDateTime ts, byte[] raw, Long big) {
        return GenericRow.of(
                id,
                BinaryString.fromString(name),
                price == null ? null : Decimal.fromBigDecimal(new BigDecimal(price), 10, 2),
                dt == null ? null : (int) dt.toEpochDay(),
                ts == null ? null : Timestamp.fromLocalDateTime(ts),
                raw,
                big);
    }

    private static final GenericRow FULL = row(5, "été", "12.50", LocalDate.of(2024, 1, 2),
            LocalDateTime.of(2024, 1, 2, 3, 4, 5), new byte[] {(byte) 0x80}, 10_000_000_000L);
    private static final GenericRow ALL_NULL = row(null, null, null, null, null, null, null);

    /** The same rows in binary form, to check predicates work on both row representations. */
    private static InternalRow binary(GenericRow row) {
        return new BinaryRowConverter(TYPE.fieldTypes()).toBinaryRow(row);
    }

    private void assertMatches(Predicate p, GenericRow row, boolean expected) {
        assertThat(p.test(row)).as("%s on generic %s", p, row).isEqualTo(expected);
        assertThat(p.test(binary(row))).as("%s on binary %s", p, row).isEqualTo(expected);
    }

    @Test
    void comparisonsOnIntegers() {
        assertMatches(builder.equal(ID, 5), FULL, true);
        assertMatches(builder.equal(ID, 6), FULL, false);
        assertMatches(builder.notEqual(ID, 6), FULL, true);
        assertMatches(builder.notEqual(ID, 5), FULL, false);
        assertMatches(builder.lessThan(ID, 5), FULL, false);
        assertMatches(builder.lessThan(ID, 6), FULL, true);
        assertMatches(builder.lessOrEqual(ID, 5), FULL, true);
        assertMatches(builder.greaterThan(ID, 5), FULL, false);
        assertMatches(builder.greaterThan(ID, -7), FULL, true);
        assertMatches(builder.greaterOrEqual(ID, 5), FULL, true);
        assertMatches(builder.between(ID, 1, 5), FULL, true);
        assertMatches(builder.between(ID, 6, 9), FULL, false);
        assertMatches(builder.greaterThan(BIG, 9_999_999_999L), FULL, true);
    }

    @Test
    void everyComparisonWithNullIsFalse() {
        List<Predicate> comparisons = List.of(
                builder.equal(ID, 5), builder.notEqual(ID, 5), builder.lessThan(ID, 5), builder.lessOrEqual(ID, 5),
                builder.greaterThan(ID, 5), builder.greaterOrEqual(ID, 5), builder.in(ID, List.of(1, 5)),
                builder.notIn(ID, List.of(1, 5)), builder.startsWith(NAME, "é"), builder.startsWith(NAME, ""),
                builder.equal(PRICE, new BigDecimal("12.50")), builder.notEqual(RAW, new byte[] {1}));
        for (Predicate p : comparisons) {
            assertMatches(p, ALL_NULL, false);
        }
    }

    @Test
    void nullChecks() {
        for (int field = 0; field < TYPE.fieldCount(); field++) {
            assertMatches(builder.isNull(field), ALL_NULL, true);
            assertMatches(builder.isNull(field), FULL, false);
            assertMatches(builder.isNotNull(field), ALL_NULL, false);
            assertMatches(builder.isNotNull(field), FULL, true);
        }
    }

    @Test
    void inAndNotIn() {
        assertMatches(builder.in(ID, List.of(1, 2, 5)), FULL, true);
        assertMatches(builder.in(ID, List.of(1, 2)), FULL, false);
        assertMatches(builder.notIn(ID, List.of(1, 2)), FULL, true);
        assertMatches(builder.notIn(ID, List.of(5)), FULL, false);
        assertMatches(builder.in(NAME, List.of("a", "été")), FULL, true);
    }

    @Test
    void stringsCompareByUnsignedUtf8Bytes() {
        assertMatches(builder.equal(NAME, "été"), FULL, true);
        assertMatches(builder.greaterThan(NAME, "z"), FULL, true);
        assertMatches(builder.lessThan(NAME, "日"), FULL, true);
        assertMatches(builder.equal(NAME, BinaryString.fromString("été")), FULL, true);
    }

    @Test
    void startsWithMatchesBytePrefixes() {
        assertMatches(builder.startsWith(NAME, "é"), FULL, true);
        assertMatches(builder.startsWith(NAME, "ét"), FULL, true);
        assertMatches(builder.startsWith(NAME, "été"), FULL, true);
        assertMatches(builder.startsWith(NAME, ""), FULL, true);
        assertMatches(builder.startsWith(NAME, "e"), FULL, false);
        assertMatches(builder.startsWith(NAME, "étés"), FULL, false);
    }

    @Test
    void binaryComparesUnsigned() {
        assertMatches(builder.greaterThan(RAW, new byte[] {0x7f}), FULL, true);
        assertMatches(builder.equal(RAW, new byte[] {(byte) 0x80}), FULL, true);
        assertMatches(builder.lessThan(RAW, new byte[] {(byte) 0x80, 0}), FULL, true);
    }

    @Test
    void javaLiteralsAreConvertedToTheFieldsInternalForm() {
        assertMatches(builder.equal(PRICE, new BigDecimal("12.5")), FULL, true);
        assertMatches(builder.equal(PRICE, "12.50"), FULL, true);
        assertMatches(builder.greaterThan(PRICE, 12.49), FULL, true);
        assertMatches(builder.equal(DT, LocalDate.of(2024, 1, 2)), FULL, true);
        assertMatches(builder.equal(DT, (int) LocalDate.of(2024, 1, 2).toEpochDay()), FULL, true);
        assertMatches(builder.greaterThan(TS, LocalDateTime.of(2024, 1, 2, 3, 4, 4)), FULL, true);
        assertMatches(builder.equal(TS, LocalDateTime.of(2024, 1, 2, 3, 4, 5)), FULL, true);
        assertMatches(builder.equal(BIG, 10_000_000_000L), FULL, true);
    }

    @Test
    void nullLiteralsAreRejectedNamingTheField() {
        assertThatThrownBy(() -> builder.equal(NAME, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'name'")
                .hasMessageContaining("isNull");
        assertThatThrownBy(() -> builder.in(ID, Arrays.asList(1, null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'id'");
    }

    @Test
    void decimalLiteralsThatDoNotFitAreRejected() {
        assertThatThrownBy(() -> builder.equal(PRICE, new BigDecimal("123456789012")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DECIMAL(10, 2)");
    }

    @Test
    void integerLiteralsMustBeWholeNumbersInTheColumnsRange() {
        // A wrapped or truncated literal would silently select the wrong rows.
        assertThatThrownBy(() -> builder.equal(ID, 5_000_000_000L))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("5000000000");
        assertThatThrownBy(() -> builder.lessThan(ID, 1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1.5");
        assertThatThrownBy(() -> new PredicateBuilder(RowType.of(DataTypes.TINYINT())).equal(0, 300))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TINYINT");
        assertThatThrownBy(() -> new PredicateBuilder(RowType.of(DataTypes.SMALLINT())).equal(0, 40_000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("SMALLINT");

        assertMatches(builder.equal(ID, 5L), FULL, true);
        assertMatches(builder.equal(ID, 5.0), FULL, true);
        assertMatches(builder.equal(BIG, 10_000_000_000.0), FULL, true);
        assertThat(new PredicateBuilder(RowType.of(DataTypes.TINYINT())).equal(0, -128).test(GenericRow.of((byte) -128)))
                .isTrue();
        assertThat(new PredicateBuilder(RowType.of(DataTypes.SMALLINT())).equal(0, 300).test(GenericRow.of((short) 300)))
                .isTrue();
    }

    @Test
    void andOrCombine() {
        Predicate idIs5 = builder.equal(ID, 5);
        Predicate nameIsX = builder.equal(NAME, "x");

        assertMatches(PredicateBuilder.and(idIs5, nameIsX), FULL, false);
        assertMatches(PredicateBuilder.or(idIs5, nameIsX), FULL, true);
        assertMatches(PredicateBuilder.or(nameIsX, builder.isNull(ID)), FULL, false);
        assertMatches(PredicateBuilder.and(idIs5, builder.isNotNull(NAME)), FULL, true);
        assertMatches(PredicateBuilder.or(builder.equal(ID, 5), builder.isNull(ID)), ALL_NULL, true);
    }

    @Test
    void andFlattensAndSingleChildrenAreReturnedAsIs() {
        Predicate a = builder.equal(ID, 1);
        Predicate b = builder.equal(ID, 2);
        Predicate c = builder.equal(ID, 3);

        assertThat(PredicateBuilder.and(a)).isSameAs(a);
        assertThat(PredicateBuilder.or(a)).isSameAs(a);
        assertThat(PredicateBuilder.splitAnd(PredicateBuilder.and(PredicateBuilder.and(a, b), c))).containsExactly(a, b, c);
        assertThat(PredicateBuilder.splitAnd(PredicateBuilder.or(a, b))).hasSize(1);
        assertThat(PredicateBuilder.splitAnd(null)).isEmpty();
        assertThatThrownBy(() -> PredicateBuilder.and(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void negationsAreExactComplementsOnNonNullValues() {
        List<Predicate> predicates = List.of(
                builder.equal(ID, 5), builder.notEqual(ID, 5), builder.lessThan(ID, 5), builder.lessOrEqual(ID, 5),
                builder.greaterThan(ID, 5), builder.greaterOrEqual(ID, 5), builder.in(ID, List.of(4, 5)),
                builder.notIn(ID, List.of(4, 5)));
        for (int id = 3; id <= 7; id++) {
            GenericRow r = row(id, "n", null, null, null, null, null);
            for (Predicate p : predicates) {
                Predicate negated = p.negate().orElseThrow();
                assertThat(negated.test(r)).as("NOT %s on id=%d", p, id).isEqualTo(!p.test(r));
            }
        }
    }

    @Test
    void negationOfNullChecksAndCompounds() {
        Predicate idIs5 = builder.equal(ID, 5);
        Predicate nameNull = builder.isNull(NAME);

        assertThat(nameNull.negate()).contains(builder.isNotNull(NAME));
        Predicate negatedAnd = PredicateBuilder.and(idIs5, nameNull).negate().orElseThrow();
        assertThat(negatedAnd).isEqualTo(PredicateBuilder.or(builder.notEqual(ID, 5), builder.isNotNull(NAME)));
        assertThat(builder.startsWith(NAME, "a").negate()).isEmpty();
        assertThat(PredicateBuilder.or(idIs5, builder.startsWith(NAME, "a")).negate()).isEmpty();
    }

    @Test
    void predicatesAreEqualByValue() {
        assertThat(builder.equal(NAME, "a")).isEqualTo(builder.equal(NAME, BinaryString.fromString("a")));
        assertThat(builder.equal(NAME, "a").hashCode()).isEqualTo(builder.equal(NAME, "a").hashCode());
        assertThat(builder.equal(NAME, "a")).isNotEqualTo(builder.equal(NAME, "b"));
        assertThat(builder.indexOf("price")).isEqualTo(PRICE);
        assertThatThrownBy(() -> builder.indexOf("nope")).hasMessageContaining("'nope'");
    }
}
