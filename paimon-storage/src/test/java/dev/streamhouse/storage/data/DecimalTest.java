package dev.streamhouse.storage.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;

import org.junit.jupiter.api.Test;

/** Decimals: compact (precision at most 18) and non-compact, overflow and the unscaled byte form. */
class DecimalTest {

    private static Decimal dec(String value, int precision, int scale) {
        return Decimal.fromBigDecimal(new BigDecimal(value), precision, scale);
    }

    @Test
    void precisionUpTo18IsCompact() {
        assertThat(dec("1.23", 18, 2).isCompact()).isTrue();
        assertThat(dec("1.23", 19, 2).isCompact()).isFalse();
        assertThat(Decimal.fromUnscaledLong(123, 18, 2).isCompact()).isTrue();
        assertThat(Decimal.fromUnscaledLong(123, 20, 2).isCompact()).isFalse();
    }

    @Test
    void compactAndNonCompactOfTheSameValueAgree() {
        Decimal compact = Decimal.fromUnscaledLong(-12345, 10, 2);
        Decimal wide = Decimal.fromUnscaledLong(-12345, 20, 2);

        assertThat(compact.toBigDecimal()).isEqualTo(new BigDecimal("-123.45"));
        assertThat(wide.toBigDecimal()).isEqualTo(new BigDecimal("-123.45"));
        assertThat(compact.compareTo(wide)).isZero();
        assertThat(compact).isEqualTo(wide);
        assertThat(compact.hashCode()).isEqualTo(wide.hashCode());
        assertThat(wide.toUnscaledLong()).isEqualTo(-12345);
        assertThat(compact.toString()).isEqualTo("-123.45");
    }

    @Test
    void fromBigDecimalRoundsHalfUpToTheScale() {
        assertThat(dec("1.005", 10, 2).toBigDecimal()).isEqualTo(new BigDecimal("1.01"));
        assertThat(dec("-1.005", 10, 2).toBigDecimal()).isEqualTo(new BigDecimal("-1.01"));
        assertThat(dec("1.004", 10, 2).toBigDecimal()).isEqualTo(new BigDecimal("1.00"));
        assertThat(dec("7", 10, 2).toUnscaledLong()).isEqualTo(700);
    }

    @Test
    void fromBigDecimalReturnsNullWhenTheValueDoesNotFit() {
        assertThat(dec("1234.5", 5, 2)).isNull();
        assertThat(dec("999.99", 5, 2)).isNotNull();
        assertThat(dec("-999.99", 5, 2)).isNotNull();
        assertThat(dec("999.995", 5, 2)).as("overflows only after rounding").isNull();
        assertThat(dec("1E+20", 38, 18)).isNull();
        assertThat(dec("99999999999999999999", 20, 0)).isNotNull();
        assertThat(dec("100000000000000000000", 20, 0)).isNull();
    }

    @Test
    void zeroFitsAnyPrecision() {
        assertThat(dec("0", 1, 0).toUnscaledLong()).isZero();
        assertThat(dec("0.000", 2, 2).toBigDecimal()).isEqualByComparingTo(BigDecimal.ZERO);
    }

    @Test
    void unscaledBytesAreMinimalTwosComplementBigEndian() {
        assertThat(dec("123.45", 20, 2).toUnscaledBytes()).containsExactly(0x30, 0x39);
        assertThat(dec("-1.00", 20, 2).toUnscaledBytes()).containsExactly(0x9c);
        assertThat(dec("0", 20, 2).toUnscaledBytes()).containsExactly(0);
        assertThat(dec("1.28", 20, 2).toUnscaledBytes()).containsExactly(0x00, 0x80);
        assertThat(dec("-1.28", 20, 2).toUnscaledBytes()).containsExactly(0x80);
        assertThat(dec("123.45", 10, 2).toUnscaledBytes()).as("compact too").containsExactly(0x30, 0x39);
    }

    @Test
    void unscaledBytesRoundTrip() {
        String[] values = {"0", "1", "-1", "123.45", "-98765432109876543210.12", "99999999999999999999999999999999999.999"};
        for (String v : values) {
            Decimal d = dec(v, 38, 3);
            assertThat(Decimal.fromUnscaledBytes(d.toUnscaledBytes(), 38, 3)).as(v).isEqualTo(d);
            assertThat(new BigInteger(d.toUnscaledBytes())).isEqualTo(d.toBigDecimal().unscaledValue());
        }
        Decimal compact = dec("-42.17", 9, 2);
        assertThat(Decimal.fromUnscaledBytes(compact.toUnscaledBytes(), 9, 2)).isEqualTo(compact);
        assertThat(Decimal.fromUnscaledBytes(compact.toUnscaledBytes(), 9, 2).isCompact()).isTrue();
    }

    @Test
    void largestPrecisionNeedsSixteenBytes() {
        Decimal max = dec("99999999999999999999999999999999999999", 38, 0);
        Decimal min = dec("-99999999999999999999999999999999999999", 38, 0);

        assertThat(max.toUnscaledBytes()).hasSize(16);
        assertThat(min.toUnscaledBytes()).hasSize(16);
    }

    @Test
    void compareIsByValueAcrossScales() {
        assertThat(dec("1.5", 10, 1).compareTo(dec("1.50", 10, 2))).isZero();
        assertThat(dec("1.49", 10, 2)).isLessThan(dec("1.5", 10, 1));
        assertThat(dec("-2", 30, 0)).isLessThan(dec("-1.99", 10, 2));
        assertThat(dec("123456789012345678901", 30, 0)).isGreaterThan(dec("9.99", 3, 2));
    }
}
