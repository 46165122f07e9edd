package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataTypeParserTest {

    static Stream<Arguments> spellings() {
        return Stream.of(
                Arguments.of("BOOLEAN", DataTypes.BOOLEAN()),
                Arguments.of("boolean", DataTypes.BOOLEAN()),
                Arguments.of("TINYINT", DataTypes.TINYINT()),
                Arguments.of("SMALLINT", DataTypes.SMALLINT()),
                Arguments.of("INT", DataTypes.INT()),
                Arguments.of("INTEGER", DataTypes.INT()),
                Arguments.of("Integer NOT NULL", DataTypes.INT().notNull()),
                Arguments.of("BIGINT", DataTypes.BIGINT()),
                Arguments.of("FLOAT", DataTypes.FLOAT()),
                Arguments.of("DOUBLE", DataTypes.DOUBLE()),
                Arguments.of("DOUBLE PRECISION", DataTypes.DOUBLE()),
                Arguments.of("double  precision not null", DataTypes.DOUBLE().notNull()),
                Arguments.of("DECIMAL(10, 2)", DataTypes.DECIMAL(10, 2)),
                Arguments.of("DECIMAL(38,10) NOT NULL", DataTypes.DECIMAL(38, 10).notNull()),
                Arguments.of("DECIMAL", DataTypes.DECIMAL(10, 0)),
                Arguments.of("DECIMAL(5)", DataTypes.DECIMAL(5, 0)),
                Arguments.of("NUMERIC", DataTypes.DECIMAL(10, 0)),
                Arguments.of("numeric(12, 3)", DataTypes.DECIMAL(12, 3)),
                Arguments.of("DEC", DataTypes.DECIMAL(10, 0)),
                Arguments.of("CHAR(3)", DataTypes.CHAR(3)),
                Arguments.of("CHAR", DataTypes.CHAR(1)),
                Arguments.of("VARCHAR(20) NOT NULL", DataTypes.VARCHAR(20).notNull()),
                Arguments.of("VARCHAR(2147483647)", DataTypes.STRING()),
                Arguments.of("STRING", DataTypes.STRING()),
                Arguments.of("string NOT NULL", DataTypes.STRING().notNull()),
                Arguments.of("BINARY(4)", DataTypes.BINARY(4)),
                Arguments.of("VARBINARY(9)", DataTypes.VARBINARY(9)),
                Arguments.of("BYTES", DataTypes.BYTES()),
                Arguments.of("DATE", DataTypes.DATE()),
                Arguments.of("TIME", DataTypes.TIME(0)),
                Arguments.of("TIME(3)", DataTypes.TIME(3)),
                Arguments.of("TIME(0) WITHOUT TIME ZONE", DataTypes.TIME(0)),
                Arguments.of("TIMESTAMP", DataTypes.TIMESTAMP(6)),
                Arguments.of("TIMESTAMP(3)", DataTypes.TIMESTAMP(3)),
                Arguments.of("TIMESTAMP(9) WITHOUT TIME ZONE NOT NULL", DataTypes.TIMESTAMP(9).notNull()),
                Arguments.of("TIMESTAMP(3) WITH LOCAL TIME ZONE", DataTypes.TIMESTAMP_LTZ(3)),
                Arguments.of("timestamp with local time zone", DataTypes.TIMESTAMP_LTZ(6)),
                Arguments.of("TIMESTAMP_LTZ(3)", DataTypes.TIMESTAMP_LTZ(3)),
                Arguments.of("TIMESTAMP_LTZ", DataTypes.TIMESTAMP_LTZ(6)),
                Arguments.of("VARIANT", DataTypes.VARIANT()),
                Arguments.of("INT NULL", DataTypes.INT()),
                Arguments.of("ARRAY<INT NOT NULL>", DataTypes.ARRAY(DataTypes.INT().notNull())),
                Arguments.of("MULTISET<STRING> NOT NULL", DataTypes.MULTISET(DataTypes.STRING()).notNull()),
                Arguments.of("MAP<STRING, ARRAY<BIGINT>>", DataTypes.MAP(DataTypes.STRING(), DataTypes.ARRAY(DataTypes.BIGINT()))));
    }

    @ParameterizedTest
    @MethodSource("spellings")
    void parsesEverySpelling(String text, DataType expected) {
        assertThat(DataTypeParser.parse(text)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "BOOLEAN", "TINYINT NOT NULL", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL(10, 2)", "DECIMAL(38, 10) NOT NULL",
        "CHAR(3)", "VARCHAR(20) NOT NULL", "STRING", "BINARY(2)", "VARBINARY(5)", "BYTES", "DATE", "TIME(0)",
        "TIMESTAMP(3)", "TIMESTAMP(6) NOT NULL", "TIMESTAMP(3) WITH LOCAL TIME ZONE", "VARIANT"})
    void writtenSpellingIsParsedBackToTheSameSpelling(String spelling) {
        assertThat(DataTypeParser.parse(spelling).asSQLString()).isEqualTo(spelling);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "INTEGRAL", "DECIMAL(10, 2", "DECIMAL(50, 2)", "DECIMAL(5, 6)", "INT NOT",
        "VARCHAR(x)", "TIMESTAMP(3) WITH TIME ZONE", "TIME(10)", "INT INT", "ROW<a INT>", "INT;", "MAP<INT>"})
    void rejectsMalformedText(String text) {
        assertThatThrownBy(() -> DataTypeParser.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Cannot parse type '" + text + "'");
    }
}
