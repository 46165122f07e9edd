package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;

import static dev.streamhouse.flink.cdc.sync.columns.Rows.col;
import static dev.streamhouse.flink.cdc.sync.columns.Rows.compute;
import static dev.streamhouse.flink.cdc.sync.columns.Rows.type;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The temporal functions' values and types for each column type they read, as Paimon computes them. */
class TemporalFunctionsTest {
    private static final CdcColumn DATETIME = col("ts", "DATETIME", 3);
    private static final LocalDateTime T = LocalDateTime.of(2024, 3, 5, 10, 11, 12, 123_000_000);

    @Test
    void partsOfADatetimeAreInts() {
        assertThat(compute("v=year(ts)", DATETIME, T)).isEqualTo(2024);
        assertThat(compute("v=month(ts)", DATETIME, T)).isEqualTo(3);
        assertThat(compute("v=day(ts)", DATETIME, T)).isEqualTo(5);
        assertThat(compute("v=hour(ts)", DATETIME, T)).isEqualTo(10);
        assertThat(compute("v=minute(ts)", DATETIME, T)).isEqualTo(11);
        assertThat(compute("v=second(ts)", DATETIME, T)).isEqualTo(12);
        for (String f : List.of("year", "month", "day", "hour", "minute", "second")) {
            assertThat(type("v=" + f + "(ts)", DATETIME)).isEqualTo("INT");
        }
        assertThat(compute("v=year(ts)", DATETIME, null)).isNull();
    }

    @Test
    void dateFormatFormatsWithAJavaPatternAsAString() {
        assertThat(compute("dt=date_format(ts, yyyy-MM-dd)", DATETIME, T)).isEqualTo("2024-03-05");
        assertThat(compute("dt=date_format(ts, 'yyyy-MM-dd HH:mm:ss.SSS')", DATETIME, T)).isEqualTo("2024-03-05 10:11:12.123");
        assertThat(compute("dt=date_format(ts, yyyyMMdd'T'HH)", DATETIME, T)).isEqualTo("20240305T10");
        assertThat(type("dt=date_format(ts, yyyy)", DATETIME)).isEqualTo("STRING");
        assertThat(compute("dt=date_format(ts, yyyy)", DATETIME, null)).isNull();
    }

    @Test
    void aDateIsReadAtMidnight() {
        CdcColumn date = col("d", "DATE", -1);
        assertThat(compute("v=date_format(d, yyyy-MM-dd HH:mm)", date, LocalDate.of(2024, 3, 5)))
                .isEqualTo("2024-03-05 00:00");
        assertThat(compute("v=day(d)", date, LocalDate.of(2024, 2, 29))).isEqualTo(29);
    }

    @Test
    void aTimestampLtzIsReadInTheSyncsTimeZone() {
        // MySQL TIMESTAMP: an instant, shown in the sync's zone (Asia/Shanghai, UTC+8, in these tests).
        CdcColumn ltz = col("ts", "TIMESTAMP", 0);
        Instant instant = Instant.parse("2024-03-05T23:30:00Z");
        assertThat(compute("v=day(ts)", ltz, instant)).isEqualTo(6);
        assertThat(compute("v=hour(ts)", ltz, instant)).isEqualTo(7);
        assertThat(compute("v=date_format(ts, yyyy-MM-dd)", ltz, instant)).isEqualTo("2024-03-06");
    }

    @Test
    void integersAreEpochNumbersInUtcWithTheGivenPrecision() {
        CdcColumn n = col("n", "BIGINT", -1);
        String full = "yyyy-MM-dd HH:mm:ss.SSSSSSSSS";
        assertThat(compute("v=date_format(n, '" + full + "')", n, 1_700_000_000L)).isEqualTo("2023-11-14 22:13:20.000000000");
        assertThat(compute("v=date_format(n, '" + full + "', 0)", n, 1_700_000_000L)).isEqualTo("2023-11-14 22:13:20.000000000");
        assertThat(compute("v=date_format(n, '" + full + "', 3)", n, 1_700_000_000_123L)).isEqualTo("2023-11-14 22:13:20.123000000");
        assertThat(compute("v=date_format(n, '" + full + "', 6)", n, 1_700_000_000_123_456L))
                .isEqualTo("2023-11-14 22:13:20.123456000");
        assertThat(compute("v=date_format(n, '" + full + "', 9)", n, 1_700_000_000_123_456_789L))
                .isEqualTo("2023-11-14 22:13:20.123456789");
        assertThat(compute("v=year(n, 3)", n, 1_700_000_000_123L)).isEqualTo(2023);
        // Before the epoch: floor division, so -1 µs is the last microsecond of 1969.
        assertThat(compute("v=date_format(n, '" + full + "', 6)", n, -1L)).isEqualTo("1969-12-31 23:59:59.999999000");
        CdcColumn i = col("i", "INT", -1);
        assertThat(compute("v=month(i)", i, -1L)).isEqualTo(12);
        assertThat(compute("v=year(i)", i, 0L)).isEqualTo(1970);
    }

    @Test
    void stringsAreDatesOrWithAPrecisionEpochNumbers() {
        CdcColumn s = col("s", "VARCHAR", 40);
        String format = "v=date_format(s, 'yyyy-MM-dd HH:mm:ss.SSS')";
        assertThat(compute(format, s, "2024-03-05 10:11:12.5")).isEqualTo("2024-03-05 10:11:12.500");
        assertThat(compute(format, s, "2024-3-5 1:2:3")).isEqualTo("2024-03-05 01:02:03.000");
        assertThat(compute(format, s, "2024-03-05")).isEqualTo("2024-03-05 00:00:00.000");
        assertThat(compute(format, s, "2024-03-05T10:11:12")).isEqualTo("2024-03-05 10:11:12.000");
        // java.time's smart resolution, as Paimon parses: the last day of the month, 24:00 the next midnight.
        assertThat(compute(format, s, "2024-02-30")).isEqualTo("2024-02-29 00:00:00.000");
        assertThat(compute(format, s, "2024-03-05 24:00:00")).isEqualTo("2024-03-06 00:00:00.000");
        assertThat(compute("v=year(s, 3)", s, "1700000000123")).isEqualTo(2023);
        assertThat(compute("v=year(s)", col("s", "TEXT", -1), "1999-12-31")).isEqualTo(1999);

        assertThatThrownBy(() -> compute("v=year(s)", s, "yesterday"))
                .hasMessage("Cannot compute column 'v' (--computed_column 'v=year(s)') of a row of source table "
                        + "shop.orders from value 'yesterday': 'yesterday' is not a date or date-time "
                        + "(yyyy-MM-dd[ HH:mm:ss[.f]])");
        assertThatThrownBy(() -> compute("v=year(s)", s, "2024-13-01")).hasMessageContaining("has no month 13");
        assertThatThrownBy(() -> compute("v=year(s)", s, "2024-01-01 25:00:00")).hasMessageContaining("not a time of day");
        assertThatThrownBy(() -> compute("v=year(s, 3)", s, "2024-01-01"))
                .hasMessageContaining("'2024-01-01' is not an epoch number");
    }

    @Test
    void otherColumnTypesAndAPrecisionForDatesAreRefusedWhenBound() {
        assertThatThrownBy(() -> type("v=year(x)", Rows.decimal("x", 10, 2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot compute --computed_column 'v=year(x)' for source table shop.orders: year() reads "
                        + "a DATE, TIMESTAMP, TIMESTAMP_LTZ, string or integer (epoch) column, and column 'x' is "
                        + "DECIMAL(10, 2)");
        assertThatThrownBy(() -> type("v=hour(x)", col("x", "TIME", 0))).hasMessageContaining("column 'x' is TIME(0)");
        assertThatThrownBy(() -> type("v=date_format(x, yyyy)", col("x", "TINYINT", 1)))
                .hasMessageContaining("column 'x' is BOOLEAN");
        assertThatThrownBy(() -> type("v=date_format(x, yyyy)", col("x", "DOUBLE", -1)))
                .hasMessageContaining("column 'x' is DOUBLE");
        assertThatThrownBy(() -> type("v=year(ts, 3)", DATETIME))
                .hasMessageContaining("the precision argument is for epoch numbers in integer or string columns, and "
                        + "column 'ts' is TIMESTAMP(3)");
    }

    @Test
    void stringColumnsOfMappedTemporalTypesAreReadThroughPaimonsText() {
        // --type_mapping to-string: the table column is STRING, the value still a date-time, which Paimon
        // sees as its text (3 or 6 fractional digits) and parses back.
        CdcColumn ts = col("ts", "DATETIME", 6);
        CdcSchema schema = Rows.schema(ts);
        BoundColumns bound = ExtraColumns.of(List.of(ComputedColumnParser.parse("v=date_format(ts, yyyy-MM-dd HH)"),
                ComputedColumnParser.parse("w=substring(ts, 11)")), List.of())
                .bind(schema, List.of(DataTypes.STRING()), Set.of(), null, Rows.ZONE);
        assertThat(Rows.added(bound, schema, LocalDateTime.of(2024, 3, 5, 10, 11, 12, 123_456_000)))
                .containsExactly("2024-03-05 10", "10:11:12.123456");
    }

    @Test
    void nowIsTheLocalTimeToMillisecondsAsTimestamp3() {
        CdcColumn any = col("x", "INT", -1);
        assertThat(type("n=now()", any)).isEqualTo("TIMESTAMP(3)");
        LocalDateTime before = LocalDateTime.now().truncatedTo(ChronoUnit.MILLIS);
        Object now = compute("n=now()", any, null);
        LocalDateTime after = LocalDateTime.now();
        assertThat((LocalDateTime) now).isBetween(before, after);
        assertThat(((LocalDateTime) now).getNano() % 1_000_000).isZero();
    }

    @Test
    void textOfSourceValuesIsPaimonsText() {
        assertThat(SourceText.of(LocalDateTime.of(2024, 3, 5, 10, 11, 12), 3, Rows.ZONE)).isEqualTo("2024-03-05 10:11:12.000");
        assertThat(SourceText.of(Instant.parse("2024-03-05T02:11:12Z"), 3, Rows.ZONE)).isEqualTo("2024-03-05 10:11:12.000000");
        assertThat(SourceText.of(LocalDate.of(2024, 3, 5), 3, Rows.ZONE)).isEqualTo("2024-03-05");
        assertThat(SourceText.of(Duration.ofSeconds(3600 + 120), 3, Rows.ZONE)).isEqualTo("01:02");
        assertThat(SourceText.of(new BigDecimal("1E+3"), 3, Rows.ZONE)).isEqualTo("1000");
        assertThat(SourceText.of(new byte[] {1, 2}, 3, Rows.ZONE)).isEqualTo("AQI=");
        assertThat(SourceText.of(true, 3, Rows.ZONE)).isEqualTo("true");
    }
}
