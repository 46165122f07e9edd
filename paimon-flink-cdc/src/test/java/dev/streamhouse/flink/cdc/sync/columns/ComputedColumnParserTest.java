package dev.streamhouse.flink.cdc.sync.columns;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ComputedColumnParserTest {

    @Test
    void readsNameFunctionColumnAndLiteralsAsPaimonWritesThem() {
        ComputedColumn c = ComputedColumnParser.parse("dt=date_format(ts,yyyy-MM-dd)");
        assertThat(c.name()).isEqualTo("dt");
        assertThat(c.function()).isEqualTo(ComputedFunction.DATE_FORMAT);
        assertThat(c.input()).isEqualTo("ts");
        assertThat(c.literals()).containsExactly("yyyy-MM-dd");
        assertThat(c.argument()).isEqualTo("dt=date_format(ts,yyyy-MM-dd)");

        ComputedColumn spaced = ComputedColumnParser.parse(" dt = DATE_FORMAT( ts , yyyy-MM-dd HH , 3 ) ");
        assertThat(spaced.name()).isEqualTo("dt");
        assertThat(spaced.function()).isEqualTo(ComputedFunction.DATE_FORMAT);
        assertThat(spaced.input()).isEqualTo("ts");
        assertThat(spaced.literals()).containsExactly("yyyy-MM-dd HH", "3");
    }

    @Test
    void functionsWithoutColumnTakeOnlyLiterals() {
        ComputedColumn now = ComputedColumnParser.parse("ingested=now()");
        assertThat(now.input()).isNull();
        assertThat(now.literals()).isEmpty();
        ComputedColumn cast = ComputedColumnParser.parse("v=cast(12, INT)");
        assertThat(cast.input()).isNull();
        assertThat(cast.literals()).containsExactly("12", "INT");
    }

    @Test
    void quotedArgumentsLoseTheirQuotesAndKeepCommasAndParenthesesStayTogether() {
        assertThat(ComputedColumnParser.parse("dt=date_format(ts, 'yyyy-MM-dd')").literals()).containsExactly("yyyy-MM-dd");
        assertThat(ComputedColumnParser.parse("dt=date_format(ts, 'yyyy, MM')").literals()).containsExactly("yyyy, MM");
        assertThat(ComputedColumnParser.parse("dt=date_format(ts, 'yyyy-MM-dd''T''HH')").literals())
                .containsExactly("yyyy-MM-dd'T'HH");
        // An unquoted pattern keeps its own quotes, as DateTimeFormatter reads them.
        assertThat(ComputedColumnParser.parse("dt=date_format(ts, yyyy-MM-dd'T'HH)").literals())
                .containsExactly("yyyy-MM-dd'T'HH");
        assertThat(ComputedColumnParser.parse("v=cast(1.5, DECIMAL(10, 2))").literals())
                .containsExactly("1.5", "DECIMAL(10, 2)");
        assertThat(ComputedColumnParser.parse("v=cast('a=b')").literals()).containsExactly("a=b");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "dt|it is column-name=function(arguments)",
        "=year(ts)|it is column-name=function(arguments)",
        "y=year|the expression 'year' is function(arguments)",
        "y=year(ts|the expression 'year(ts' is function(arguments)",
        "y=foo(ts)|there is no function 'foo'; the functions are year, month, day, hour, minute, second, "
                + "date_format, now, substring, truncate, cast, upper, lower, trim",
        "y=year()|year() reads a column, its first argument: year(column[, precision])",
        "y=year(ts, 2)|the precision is 0 (epoch seconds), 3 (epoch milliseconds), 6 (epoch microseconds) or 9 "
                + "(epoch nanoseconds), not '2'",
        "y=year(ts, 0, 1)|it is called year(column[, precision]), not with 3 arguments",
        "d=date_format(ts)|it is called date_format(column, format[, precision]), not with 1 argument",
        "d=date_format(ts, yyyy-MM-dd{)|'yyyy-MM-dd{' is not a date format pattern",
        "d=date_format(ts, yyyy-MM-dd VV)|'yyyy-MM-dd VV' is not a date format pattern of local date-times",
        "d=date_format(ts, 'yyyy)|a quote is not closed",
        "n=now(ts)|it is called now(), not with 1 argument",
        "s=substring(x)|it is called substring(column, begin[, end]), not with 1 argument",
        "s=substring(x, -1)|the begin index -1 is negative",
        "s=substring(x, 3, 1)|the end index 1 is not above the begin index 3",
        "s=substring(x, a)|the begin index 'a' is not an integer",
        "t=truncate(x, 0)|the width 0 is not positive",
        "t=truncate(x, w)|the width 'w' is not an integer",
        "u=upper(s, 1)|it is called upper(column), not with 2 arguments",
        "c=cast()|it is called cast(value[, type]), not with 0 arguments",
        "c=cast(abc, INT)|'abc' is no INT value",
        "c=cast(1, FOO)|'FOO' is not a SQL type",
        "c=cast(1, ARRAY<INT>)|cast() makes values of atomic types, not ARRAY<INT>",
        "c=cast(abc, CHAR(2))|'abc' is no CHAR(2) value (it is longer than 2 characters)",
        "c=cast(123.4, DECIMAL(3, 1))|'123.4' is no DECIMAL(3, 1) value",
    })
    void wrongArgumentsFailQuotingTheArgument(String argument, String why) {
        assertThatThrownBy(() -> ComputedColumnParser.parse(argument))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Cannot parse --computed_column '" + argument + "': ")
                .hasMessageContaining(why);
    }

    @Test
    void everyFunctionOfPaimonIsKnown() {
        assertThat(ComputedFunction.names().split(", ")).containsExactlyInAnyOrderElementsOf(List.of("year", "month",
                "day", "hour", "minute", "second", "date_format", "now", "substring", "truncate", "cast", "upper",
                "lower", "trim"));
    }
}
