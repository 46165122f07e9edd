package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;

import static dev.streamhouse.flink.cdc.sync.columns.Rows.col;
import static dev.streamhouse.flink.cdc.sync.columns.Rows.compute;
import static dev.streamhouse.flink.cdc.sync.columns.Rows.decimal;
import static dev.streamhouse.flink.cdc.sync.columns.Rows.type;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** substring, truncate, upper, lower, trim and cast: values and types as Paimon computes them. */
class OtherFunctionsTest {
    private static final CdcColumn S = col("s", "VARCHAR", 20);

    @Test
    void substringOfAnyColumnsText() {
        assertThat(compute("v=substring(s, 1)", S, "abcdef")).isEqualTo("bcdef");
        assertThat(compute("v=substring(s, 1, 3)", S, "abcdef")).isEqualTo("bc");
        assertThat(compute("v=substring(s, 6)", S, "abcdef")).isEqualTo("");
        assertThat(compute("v=substring(n, 1)", col("n", "BIGINT", -1), 12345L)).isEqualTo("2345");
        assertThat(compute("v=substring(ts, 0, 10)", col("ts", "DATETIME", 0), LocalDateTime.of(2024, 3, 5, 10, 11)))
                .isEqualTo("2024-03-05");
        assertThat(compute("v=substring(ts, 11)", col("ts", "DATETIME", 0), LocalDateTime.of(2024, 3, 5, 10, 11)))
                .isEqualTo("10:11:00.000");
        assertThat(compute("v=substring(d, 0, 4)", decimal("d", 10, 2), new BigDecimal("12.30"))).isEqualTo("12.3");
        assertThat(type("v=substring(s, 1)", S)).isEqualTo("STRING");
        assertThat(compute("v=substring(s, 1)", S, null)).isNull();
        // Beyond the value: Paimon's String.substring fails, and so does the sync, naming the value.
        assertThatThrownBy(() -> compute("v=substring(s, 1, 30)", S, "abcdef"))
                .hasMessage("Cannot compute column 'v' (--computed_column 'v=substring(s, 1, 30)') of a row of source "
                        + "table shop.orders from value 'abcdef': the indexes 1, 30 are out of the range of 'abcdef'");
        assertThatThrownBy(() -> compute("v=substring(s, 7)", S, "abcdef")).hasMessageContaining("out of the range");
    }

    @Test
    void truncateKeepsTheColumnsType() {
        CdcColumn bigint = col("n", "BIGINT", -1);
        CdcColumn integer = col("i", "INT", -1);
        CdcColumn tiny = col("t", "TINYINT", 4);
        CdcColumn dec = decimal("d", 10, 2);
        assertThat(compute("v=truncate(n, 10)", bigint, -15L)).isEqualTo(-20L);
        assertThat(compute("v=truncate(n, 10)", bigint, 15L)).isEqualTo(10L);
        assertThat(compute("v=truncate(i, 10)", integer, 25L)).isEqualTo(20L);
        assertThat(compute("v=truncate(t, 4)", tiny, -1L)).isEqualTo(-4L);
        assertThat(compute("v=truncate(d, 10)", dec, new BigDecimal("12.34"))).isEqualTo(new BigDecimal("12.30"));
        assertThat(compute("v=truncate(d, 50)", dec, new BigDecimal("-12.34"))).isEqualTo(new BigDecimal("-12.50"));
        // A DECIMAL value truncates in units of the column's scale, whatever scale the value has.
        assertThat(compute("v=truncate(d, 10)", dec, new BigDecimal("12.3"))).isEqualTo(new BigDecimal("12.30"));
        assertThat(compute("v=truncate(s, 3)", S, "abcdef")).isEqualTo("abc");
        assertThat(type("v=truncate(n, 10)", bigint)).isEqualTo("BIGINT");
        assertThat(type("v=truncate(i, 10)", integer)).isEqualTo("INT");
        assertThat(type("v=truncate(d, 10)", dec)).isEqualTo("DECIMAL(10, 2)");
        assertThat(type("v=truncate(s, 3)", S)).isEqualTo("VARCHAR(20)");
        assertThat(compute("v=truncate(n, 10)", bigint, null)).isNull();
        // A string shorter than the width fails, as in Paimon.
        assertThatThrownBy(() -> compute("v=truncate(s, 10)", S, "abc"))
                .hasMessageContaining("from value 'abc': the width 10 is longer than 'abc'");
        assertThatThrownBy(() -> type("v=truncate(x, 10)", col("x", "DATETIME", 0)))
                .hasMessage("Cannot compute --computed_column 'v=truncate(x, 10)' for source table shop.orders: "
                        + "truncate() takes an integer, DECIMAL, CHAR or VARCHAR column, and column 'x' is TIMESTAMP(0)");
        assertThatThrownBy(() -> type("v=truncate(x, 10)", col("x", "TINYINT", 1)))
                .hasMessageContaining("column 'x' is BOOLEAN");
    }

    @Test
    void upperLowerAndTrimOfStrings() {
        assertThat(compute("v=upper(s)", S, "aBc")).isEqualTo("ABC");
        assertThat(compute("v=lower(s)", S, "aBc")).isEqualTo("abc");
        assertThat(compute("v=trim(s)", S, "  aBc ")).isEqualTo("aBc");
        assertThat(compute("v=upper(c)", col("c", "CHAR", 3), "ab")).isEqualTo("AB");
        assertThat(compute("v=upper(t)", col("t", "TEXT", -1), "x")).isEqualTo("X");
        assertThat(type("v=trim(s)", S)).isEqualTo("STRING");
        assertThat(compute("v=trim(s)", S, null)).isNull();
        assertThatThrownBy(() -> type("v=upper(n)", col("n", "BIGINT", -1)))
                .hasMessage("Cannot compute --computed_column 'v=upper(n)' for source table shop.orders: upper() takes "
                        + "a CHAR or VARCHAR column, and column 'n' is BIGINT");
        assertThatThrownBy(() -> type("v=trim(d)", col("d", "DATE", -1))).hasMessageContaining("column 'd' is DATE");
    }

    @Test
    void castIsAConstantOfTheGivenTypeStringByDefault() {
        CdcColumn any = col("x", "INT", -1);
        assertThat(compute("v=cast(12)", any, null)).isEqualTo("12");
        assertThat(type("v=cast(12)", any)).isEqualTo("STRING");
        assertThat(compute("v=cast(12, INT)", any, 1L)).isEqualTo(12L);
        assertThat(type("v=cast(12, INT)", any)).isEqualTo("INT");
        assertThat(type("v=cast(12, BIGINT NOT NULL)", any)).isEqualTo("BIGINT NOT NULL");
        assertThat(compute("v=cast(1.5, DECIMAL(10, 2))", any, null)).isEqualTo(new BigDecimal("1.5"));
        assertThat(type("v=cast(1.5, DECIMAL(10, 2))", any)).isEqualTo("DECIMAL(10, 2)");
        assertThat(compute("v=cast(yes, BOOLEAN)", any, null)).isEqualTo(true);
        assertThat(compute("v=cast(0.25, DOUBLE)", any, null)).isEqualTo(0.25);
        assertThat(compute("v=cast(2024-03-05, DATE)", any, null)).isEqualTo(LocalDate.of(2024, 3, 5));
        assertThat(compute("v=cast('2024-03-05 10:11:12', TIMESTAMP(3))", any, null))
                .isEqualTo(LocalDateTime.of(2024, 3, 5, 10, 11, 12));
        assertThat(type("v=cast('2024-03-05 10:11:12', TIMESTAMP(3))", any)).isEqualTo("TIMESTAMP(3)");
        assertThat(compute("v=cast('2024-03-05 10:11:12', TIMESTAMP_LTZ(3))", any, null))
                .isEqualTo(LocalDateTime.of(2024, 3, 5, 10, 11, 12).atZone(ZoneId.systemDefault()).toInstant());
        assertThat(compute("v=cast(AQI=, BYTES)", any, null)).isEqualTo(new byte[] {1, 2});
        assertThat(compute("v=cast('it''s')", any, null)).isEqualTo("it's");
    }

    @Test
    void chainedFunctionsReadTheResultOfAnotherComputedColumn() {
        // year() of an INT result reads epoch seconds, as Paimon chains on its string result.
        var schema = Rows.schema(col("ts", "TIMESTAMP", 3));
        BoundColumns bound = Rows.bind(schema, "y=year(ts)", "c=cast(60, INT)", "m=minute(c)", "d=date_format(n, yyyy)",
                "n=now()");
        assertThat(bound.names()).containsExactly("y", "c", "m", "n", "d");
        Instant instant = Instant.parse("2023-12-31T20:00:00Z");
        assertThat(Rows.added(bound, schema, instant).subList(0, 3)).containsExactly(2024, 60L, 1);
    }
}
