package dev.streamhouse.storage.casting;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ColumnCastTest {

    static Stream<Arguments> allowed() {
        return Stream.of(
                Arguments.of(DataTypes.TINYINT(), DataTypes.SMALLINT()),
                Arguments.of(DataTypes.TINYINT(), DataTypes.BIGINT()),
                Arguments.of(DataTypes.SMALLINT(), DataTypes.INT()),
                Arguments.of(DataTypes.INT(), DataTypes.BIGINT()),
                Arguments.of(DataTypes.INT(), DataTypes.DOUBLE()),
                Arguments.of(DataTypes.SMALLINT(), DataTypes.FLOAT()),
                Arguments.of(DataTypes.FLOAT(), DataTypes.DOUBLE()),
                Arguments.of(DataTypes.INT(), DataTypes.DECIMAL(10, 0)),
                Arguments.of(DataTypes.INT(), DataTypes.DECIMAL(12, 2)),
                Arguments.of(DataTypes.BIGINT(), DataTypes.DECIMAL(19, 0)),
                Arguments.of(DataTypes.DECIMAL(10, 2), DataTypes.DECIMAL(20, 2)),
                Arguments.of(DataTypes.CHAR(3), DataTypes.VARCHAR(3)),
                Arguments.of(DataTypes.VARCHAR(3), DataTypes.STRING()),
                Arguments.of(DataTypes.BINARY(4), DataTypes.VARBINARY(4)),
                Arguments.of(DataTypes.VARBINARY(4), DataTypes.BYTES()),
                Arguments.of(DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP(6)),
                Arguments.of(DataTypes.TIMESTAMP_LTZ(0), DataTypes.TIMESTAMP_LTZ(9)),
                Arguments.of(DataTypes.INT().notNull(), DataTypes.INT()),
                Arguments.of(row(f(1, "x", DataTypes.INT())), row(f(1, "x", DataTypes.INT()), f(7, "y", DataTypes.STRING()))));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("allowed")
    void allowedChanges(DataType from, DataType to) {
        assertThat(ColumnCast.refusal(from, to)).isEmpty();
        assertThat(ColumnCast.of(from, to).to()).isEqualTo(to);
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of(DataTypes.BIGINT(), DataTypes.INT(), "narrow"),
                Arguments.of(DataTypes.INT(), DataTypes.SMALLINT(), "narrow"),
                Arguments.of(DataTypes.BIGINT(), DataTypes.DOUBLE(), "DECIMAL(19, 0)"),
                Arguments.of(DataTypes.INT(), DataTypes.FLOAT(), "use DOUBLE"),
                Arguments.of(DataTypes.INT(), DataTypes.DECIMAL(9, 0), "needs 10 integer digits"),
                Arguments.of(DataTypes.INT(), DataTypes.STRING(), "integer column can only be widened"),
                Arguments.of(DataTypes.DOUBLE(), DataTypes.FLOAT(), "cannot change"),
                Arguments.of(DataTypes.FLOAT(), DataTypes.DECIMAL(10, 2), "FLOAT can only become DOUBLE"),
                Arguments.of(DataTypes.DECIMAL(10, 2), DataTypes.DECIMAL(12, 3), "scale must stay 2"),
                Arguments.of(DataTypes.DECIMAL(10, 2), DataTypes.DECIMAL(8, 2), "precision must not shrink"),
                Arguments.of(DataTypes.DECIMAL(10, 2), DataTypes.DOUBLE(), "DECIMAL of larger precision"),
                Arguments.of(DataTypes.VARCHAR(10), DataTypes.VARCHAR(5), "length must not shrink"),
                Arguments.of(DataTypes.CHAR(3), DataTypes.CHAR(5), "VARCHAR(m) or STRING"),
                Arguments.of(DataTypes.STRING(), DataTypes.INT(), "VARCHAR(m) or STRING"),
                Arguments.of(DataTypes.BYTES(), DataTypes.STRING(), "VARBINARY(m) or BYTES"),
                Arguments.of(DataTypes.TIMESTAMP(6), DataTypes.TIMESTAMP(3), "precision must not shrink"),
                Arguments.of(DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP_LTZ(3), "LOCAL TIME ZONE"),
                Arguments.of(DataTypes.DATE(), DataTypes.TIMESTAMP(3), "a column of type DATE cannot change its type"),
                Arguments.of(DataTypes.BOOLEAN(), DataTypes.INT(), "a column of type BOOLEAN cannot change its type"),
                Arguments.of(DataTypes.ARRAY(DataTypes.INT()), DataTypes.ARRAY(DataTypes.BIGINT()), "cannot change"),
                Arguments.of(row(f(1, "x", DataTypes.INT())), row(f(1, "x", DataTypes.BIGINT())), "must stay"),
                Arguments.of(row(f(1, "x", DataTypes.INT()), f(2, "y", DataTypes.INT())), row(f(1, "x", DataTypes.INT())),
                        "cannot be dropped"),
                Arguments.of(row(f(1, "x", DataTypes.INT())), row(f(1, "x", DataTypes.INT()), f(2, "y", DataTypes.INT().notNull())),
                        "must be nullable"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("refused")
    void refusedChanges(DataType from, DataType to, String reason) {
        assertThat(ColumnCast.refusal(from, to)).hasValueSatisfying(why -> assertThat(why).contains(reason));
        assertThatThrownBy(() -> ColumnCast.of(from, to)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void convertsValuesExactly() {
        assertThat(ColumnCast.of(DataTypes.INT(), DataTypes.BIGINT()).apply(-7)).isEqualTo(-7L);
        assertThat(ColumnCast.of(DataTypes.TINYINT(), DataTypes.SMALLINT()).apply((byte) -3)).isEqualTo((short) -3);
        assertThat(ColumnCast.of(DataTypes.SMALLINT(), DataTypes.INT()).apply((short) 300)).isEqualTo(300);
        assertThat(ColumnCast.of(DataTypes.INT(), DataTypes.DOUBLE()).apply(Integer.MAX_VALUE))
                .isEqualTo((double) Integer.MAX_VALUE);
        assertThat(ColumnCast.of(DataTypes.FLOAT(), DataTypes.DOUBLE()).apply(1.5f)).isEqualTo(1.5d);
        assertThat(ColumnCast.of(DataTypes.BIGINT(), DataTypes.DECIMAL(20, 1)).apply(Long.MIN_VALUE))
                .isEqualTo(Decimal.fromBigDecimal(new BigDecimal(Long.MIN_VALUE), 20, 1));
        Decimal widened = (Decimal) ColumnCast.of(DataTypes.DECIMAL(10, 2), DataTypes.DECIMAL(20, 2))
                .apply(Decimal.fromUnscaledLong(12345, 10, 2));
        assertThat(widened.precision()).isEqualTo(20);
        assertThat(widened.toBigDecimal()).isEqualByComparingTo("123.45");
        Timestamp ts = Timestamp.fromEpochMillis(1234, 0);
        assertThat(ColumnCast.of(DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP(9)).apply(ts)).isEqualTo(ts);
    }

    @Test
    void lengthOnlyChangesNeedNoConversionButTimestampsAreReadWithTheWrittenPrecision() {
        assertThat(ColumnCast.of(DataTypes.VARCHAR(3), DataTypes.STRING()).convertsValues()).isFalse();
        assertThat(ColumnCast.of(DataTypes.BINARY(3), DataTypes.BYTES()).convertsValues()).isFalse();
        assertThat(ColumnCast.of(DataTypes.INT().notNull(), DataTypes.INT()).convertsValues()).isFalse();
        assertThat(ColumnCast.of(DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP(6)).convertsValues()).isTrue();
        assertThat(ColumnCast.of(DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP(6)).fileReadType())
                .isEqualTo(DataTypes.TIMESTAMP(3));
        RowType wider = row(f(1, "x", DataTypes.INT()), f(7, "y", DataTypes.STRING()));
        ColumnCast rowCast = ColumnCast.of(row(f(1, "x", DataTypes.INT())), wider);
        assertThat(rowCast.convertsValues()).isFalse();
        assertThat(rowCast.fileReadType()).isEqualTo(wider);
    }

    @Test
    void castedRowConvertsOnlyTheCastPositionsOfABinaryRow() {
        // A BinaryRow stores TIMESTAMP(3) and DECIMAL(10, 2) compactly; reading them with the new,
        // non-compact precision would misread the row, so the cast must read with the written one.
        List<DataType> written = List.of(DataTypes.INT(), DataTypes.TIMESTAMP(3), DataTypes.DECIMAL(10, 2),
                DataTypes.STRING(), DataTypes.FLOAT());
        BinaryRow file = new BinaryRowConverter(written).toBinaryRow(new Object[] {
                42, Timestamp.fromEpochMillis(1_700_000_000_123L), Decimal.fromUnscaledLong(-995, 10, 2),
                BinaryString.fromString("s"), null});
        ColumnCast[] casts = {
                ColumnCast.of(DataTypes.INT(), DataTypes.BIGINT()),
                ColumnCast.of(DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP(9)),
                ColumnCast.of(DataTypes.DECIMAL(10, 2), DataTypes.DECIMAL(30, 2)),
                null,
                ColumnCast.of(DataTypes.FLOAT(), DataTypes.DOUBLE())};
        assertThat(CastedRow.needed(casts)).isTrue();
        CastedRow row = new CastedRow(casts).replace(file);
        assertThat(row.longAt(0)).isEqualTo(42L);
        assertThat(row.timestampAt(1, 9)).isEqualTo(Timestamp.fromEpochMillis(1_700_000_000_123L));
        assertThat(row.decimalAt(2, 30, 2).toBigDecimal()).isEqualByComparingTo("-9.95");
        assertThat(row.decimalAt(2, 30, 2).precision()).isEqualTo(30);
        assertThat(row.stringAt(3).toString()).isEqualTo("s");
        assertThat(row.isNullAt(4)).isTrue();
        assertThat(CastedRow.needed(new ColumnCast[] {null, ColumnCast.of(DataTypes.CHAR(2), DataTypes.STRING())}))
                .isFalse();
    }

    private static RowType row(dev.streamhouse.storage.types.DataField... fields) {
        return DataTypes.ROW(fields);
    }

    private static dev.streamhouse.storage.types.DataField f(int id, String name, DataType type) {
        return DataTypes.FIELD(id, name, type);
    }
}
