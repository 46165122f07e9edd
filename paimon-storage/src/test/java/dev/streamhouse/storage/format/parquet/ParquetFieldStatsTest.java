package dev.streamhouse.storage.format.parquet;

import static dev.streamhouse.storage.types.DataTypes.ARRAY;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.BOOLEAN;
import static dev.streamhouse.storage.types.DataTypes.BYTES;
import static dev.streamhouse.storage.types.DataTypes.DATE;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.FLOAT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.MAP;
import static dev.streamhouse.storage.types.DataTypes.ROW;
import static dev.streamhouse.storage.types.DataTypes.SMALLINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIME;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP_LTZ;
import static dev.streamhouse.storage.types.DataTypes.TINYINT;
import static dev.streamhouse.storage.types.DataTypes.VARIANT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.format.FieldStats;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

class ParquetFieldStatsTest {
    @TempDir
    java.nio.file.Path tmp;

    private Path file(String name) {
        return new Path(tmp.resolve(name).toString());
    }

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    private static Decimal dec(String v, int p, int s) {
        return Decimal.fromBigDecimal(new BigDecimal(v), p, s);
    }

    @Test
    void primitiveColumnsGetExactMinMaxAndNullCounts() throws Exception {
        RowType type = new RowType(List.of(
                FIELD(0, "i", INT()),
                FIELD(1, "s", STRING()),
                FIELD(2, "tiny", TINYINT()),
                FIELD(3, "small", SMALLINT()),
                FIELD(4, "big", BIGINT().notNull()),
                FIELD(5, "bool", BOOLEAN()),
                FIELD(6, "date", DATE()),
                FIELD(7, "time", TIME()),
                FIELD(8, "d9", DECIMAL(9, 2)),
                FIELD(9, "d18", DECIMAL(18, 4)),
                FIELD(10, "d38", DECIMAL(38, 10)),
                FIELD(11, "ts3", TIMESTAMP(3)),
                FIELD(12, "ts6", TIMESTAMP_LTZ(6)),
                FIELD(13, "ts9", TIMESTAMP(9)),
                FIELD(14, "bin", BYTES()),
                FIELD(15, "dbl", DOUBLE())));
        List<GenericRow> rows = List.of(
                GenericRow.of(5, str("pear"), (byte) -3, (short) 300, 10L, true, 100, 1000,
                        dec("1.50", 9, 2), dec("-7.0000", 18, 4), dec("-12345678901234567890.5", 38, 10),
                        Timestamp.fromEpochMillis(2000), Timestamp.fromMicros(-5), Timestamp.fromEpochMillis(7, 1),
                        new byte[] {9}, 2.5),
                GenericRow.of(null, str("apple"), null, (short) -300, -10L, false, null, 0,
                        dec("-2.25", 9, 2), null, dec("99999999999999999999.1", 38, 10),
                        Timestamp.fromEpochMillis(-2000), null, null, null, -0.5),
                GenericRow.of(-5, str("zebra é"), (byte) 7, null, 0L, null, -100, 86_399_999,
                        null, dec("3.1415", 18, 4), null,
                        null, Timestamp.fromMicros(123_456_789), Timestamp.fromEpochMillis(1), null, null));

        FieldStats[] stats = ParquetTestFiles.write(file("stats.parquet"), type, new Options(), rows);

        assertThat(stats).containsExactly(
                new FieldStats(-5, 5, 1L),
                new FieldStats(str("apple"), str("zebra é"), 0L),
                new FieldStats((byte) -3, (byte) 7, 1L),
                new FieldStats((short) -300, (short) 300, 1L),
                new FieldStats(-10L, 10L, 0L),
                new FieldStats(false, true, 1L),
                new FieldStats(-100, 100, 1L),
                new FieldStats(0, 86_399_999, 0L),
                new FieldStats(dec("-2.25", 9, 2), dec("1.50", 9, 2), 1L),
                new FieldStats(dec("-7.0000", 18, 4), dec("3.1415", 18, 4), 1L),
                new FieldStats(dec("-12345678901234567890.5", 38, 10), dec("99999999999999999999.1", 38, 10), 1L),
                new FieldStats(Timestamp.fromEpochMillis(-2000), Timestamp.fromEpochMillis(2000), 1L),
                new FieldStats(Timestamp.fromMicros(-5), Timestamp.fromMicros(123_456_789), 1L),
                // INT96 timestamps and binaries: null count only
                new FieldStats(null, null, 1L),
                new FieldStats(null, null, 2L),
                new FieldStats(-0.5, 2.5, 1L));
    }

    @Test
    void nestedColumnsHaveNoStatistics() throws Exception {
        RowType type = new RowType(List.of(
                FIELD(0, "arr", ARRAY(INT())),
                FIELD(1, "m", MAP(STRING(), INT())),
                FIELD(2, "r", ROW(FIELD(3, "x", INT()))),
                FIELD(4, "v", VARIANT()),
                FIELD(5, "i", INT())));
        FieldStats[] stats = ParquetTestFiles.write(file("nested.parquet"), type, new Options(), List.of(
                GenericRow.of(new GenericArray(new Object[] {1}), new GenericMap(Map.of(str("k"), 1)),
                        GenericRow.of(1), VariantBytes.pack(new byte[] {0}, new byte[] {1}), 3)));

        assertThat(stats).containsExactly(FieldStats.UNKNOWN, FieldStats.UNKNOWN, FieldStats.UNKNOWN,
                FieldStats.UNKNOWN, new FieldStats(3, 3, 0L));
    }

    @Test
    void statisticsAggregateOverRowGroups() throws Exception {
        RowType type = new RowType(List.of(FIELD(0, "id", BIGINT()), FIELD(1, "s", STRING()),
                FIELD(2, "all_null", INT())));
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            rows.add(GenericRow.of(i % 10 == 0 ? null : (long) (i * 3 - 7_000),
                    str(String.format("s%05d", 4_999 - i)), null));
        }
        Path path = file("groups.parquet");
        FieldStats[] stats = ParquetTestFiles.write(path, type, Options.of("file.block-size", "4 kb"), rows);

        assertThat(ParquetTestFiles.footer(path).getBlocks()).hasSizeGreaterThan(3);
        assertThat(stats).containsExactly(
                new FieldStats(-6_997L, 4_999L * 3 - 7_000, 500L),
                new FieldStats(str("s00000"), str("s04999"), 0L),
                new FieldStats(null, null, 5_000L));
    }

    @Test
    void parquetBlockSizeOptionAlsoSplitsRowGroups() throws Exception {
        RowType type = new RowType(List.of(FIELD(0, "id", BIGINT())));
        List<GenericRow> rows = new ArrayList<>();
        for (long i = 0; i < 3_000; i++) {
            rows.add(GenericRow.of(i));
        }
        Path path = file("pbs.parquet");
        FieldStats[] stats = ParquetTestFiles.write(path, type, Options.of("parquet.block.size", "2048"), rows);
        assertThat(ParquetTestFiles.footer(path).getBlocks()).hasSizeGreaterThan(3);
        assertThat(stats[0]).isEqualTo(new FieldStats(0L, 2_999L, 0L));
    }

    @Test
    void nanMakesFloatRangeUnknownAndZeroBoundsCoverBothSigns() throws Exception {
        RowType type = new RowType(List.of(FIELD(0, "f", FLOAT()), FIELD(1, "d", DOUBLE()),
                FIELD(2, "z", DOUBLE())));
        FieldStats[] stats = ParquetTestFiles.write(file("nan.parquet"), type, new Options(), List.of(
                GenericRow.of(1.0f, Double.NaN, 0.0d),
                GenericRow.of(Float.NaN, 2.0d, 0.0d),
                GenericRow.of(null, -1.0d, 0.0d)));

        assertThat(stats[0]).isEqualTo(new FieldStats(null, null, 1L));
        assertThat(stats[1]).isEqualTo(new FieldStats(null, null, 0L));
        assertThat(stats[2]).isEqualTo(new FieldStats(-0.0d, 0.0d, 0L));
    }

    @Test
    void emptyFileHasNoValuesAndNoNulls() throws Exception {
        RowType type = new RowType(List.of(FIELD(0, "i", INT()), FIELD(1, "a", ARRAY(INT()))));
        FieldStats[] stats = ParquetTestFiles.write(file("empty.parquet"), type, new Options(), List.of());
        assertThat(stats).containsExactly(new FieldStats(null, null, 0L), FieldStats.UNKNOWN);
    }
}
