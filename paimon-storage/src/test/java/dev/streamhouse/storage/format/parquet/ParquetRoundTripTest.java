package dev.streamhouse.storage.format.parquet;

import static dev.streamhouse.storage.types.DataTypes.ARRAY;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.BINARY;
import static dev.streamhouse.storage.types.DataTypes.BOOLEAN;
import static dev.streamhouse.storage.types.DataTypes.BYTES;
import static dev.streamhouse.storage.types.DataTypes.CHAR;
import static dev.streamhouse.storage.types.DataTypes.DATE;
import static dev.streamhouse.storage.types.DataTypes.DECIMAL;
import static dev.streamhouse.storage.types.DataTypes.DOUBLE;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.FLOAT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.MAP;
import static dev.streamhouse.storage.types.DataTypes.MULTISET;
import static dev.streamhouse.storage.types.DataTypes.ROW;
import static dev.streamhouse.storage.types.DataTypes.SMALLINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIME;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP_LTZ;
import static dev.streamhouse.storage.types.DataTypes.TINYINT;
import static dev.streamhouse.storage.types.DataTypes.VARBINARY;
import static dev.streamhouse.storage.types.DataTypes.VARCHAR;
import static dev.streamhouse.storage.types.DataTypes.VARIANT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.format.FormatWriter;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

class ParquetRoundTripTest {
    @TempDir
    java.nio.file.Path tmp;

    private static final RowType ALL_TYPES = new RowType(List.of(
            FIELD(0, "bool", BOOLEAN()),
            FIELD(1, "tiny", TINYINT()),
            FIELD(2, "small", SMALLINT()),
            FIELD(3, "i", INT()),
            FIELD(4, "big", BIGINT()),
            FIELD(5, "f", FLOAT()),
            FIELD(6, "d", DOUBLE()),
            FIELD(7, "date", DATE()),
            FIELD(8, "time", TIME(3)),
            FIELD(9, "ch", CHAR(5)),
            FIELD(10, "vc", VARCHAR(20)),
            FIELD(11, "s", STRING()),
            FIELD(12, "bin", BINARY(4)),
            FIELD(13, "vb", VARBINARY(10)),
            FIELD(14, "bytes", BYTES()),
            FIELD(15, "dec9", DECIMAL(9, 2)),
            FIELD(16, "dec18", DECIMAL(18, 4)),
            FIELD(17, "dec38", DECIMAL(38, 10)),
            FIELD(18, "dec19", DECIMAL(19, 0)),
            FIELD(19, "ts3", TIMESTAMP(3)),
            FIELD(20, "ts6", TIMESTAMP(6)),
            FIELD(21, "ts9", TIMESTAMP(9)),
            FIELD(22, "ltz3", TIMESTAMP_LTZ(3)),
            FIELD(23, "ltz6", TIMESTAMP_LTZ(6)),
            FIELD(24, "ltz9", TIMESTAMP_LTZ(9)),
            FIELD(25, "arr_row", ARRAY(ROW(FIELD(40, "x", INT()), FIELD(41, "y", STRING())))),
            FIELD(26, "map_arr", MAP(STRING(), ARRAY(INT()))),
            FIELD(27, "mset", MULTISET(STRING())),
            FIELD(28, "row_row", ROW(FIELD(42, "a", INT()),
                    FIELD(43, "inner", ROW(FIELD(44, "b", STRING()), FIELD(45, "c", ARRAY(BIGINT())))))),
            FIELD(29, "arr_arr", ARRAY(ARRAY(INT().notNull()))),
            FIELD(30, "variant", VARIANT()),
            FIELD(31, "req", INT().notNull()),
            FIELD(32, "req_s", STRING().notNull())));

    private Path file(String name) {
        return new Path(tmp.resolve(name).toString());
    }

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    private static Timestamp ts(long millis, int nanos) {
        return Timestamp.fromEpochMillis(millis, nanos);
    }

    private static GenericRow fullRow() {
        Map<Object, Object> mapArr = new LinkedHashMap<>();
        mapArr.put(str("k1"), new GenericArray(new Object[] {1, null, 3}));
        mapArr.put(str(""), new GenericArray(new Object[0]));
        mapArr.put(str("k3"), null);
        return GenericRow.of(
                true, (byte) -128, (short) 32767, Integer.MIN_VALUE, Long.MAX_VALUE, 1.5f, -0.25d,
                (int) LocalDate.of(1969, 12, 31).toEpochDay(), 86_399_999,
                str("ab"), str("héllo wörld 🌍"), str(""),
                new byte[] {1, 2, 3, 4}, new byte[0], new byte[] {(byte) 0xFF, 0, 127},
                Decimal.fromBigDecimal(new BigDecimal("9999999.99"), 9, 2),
                Decimal.fromBigDecimal(new BigDecimal("-99999999999999.9999"), 18, 4),
                Decimal.fromBigDecimal(new BigDecimal("9999999999999999999999999999.9999999999"), 38, 10),
                Decimal.fromBigDecimal(new BigDecimal("-9999999999999999999"), 19, 0),
                ts(1_700_000_000_123L, 0),
                ts(-1L, 999_000),
                ts(-86_400_001L, 123_456),
                ts(0L, 0),
                ts(1_700_000_000_123L, 456_000),
                ts(253_402_300_799_999L, 999_999),
                new GenericArray(new Object[] {GenericRow.of(1, str("one")), null, GenericRow.of(null, null)}),
                new GenericMap(mapArr),
                multiset(str("a"), 2, str("b"), 1),
                GenericRow.of(7, GenericRow.of(str("deep"), new GenericArray(new Object[] {Long.MIN_VALUE, null}))),
                new GenericArray(new Object[] {new GenericArray(new Object[] {1, 2}), null,
                        new GenericArray(new Object[0])}),
                VariantBytes.pack(new byte[] {0x0C, 42}, new byte[] {1, 0, 0}),
                42, str("required"));
    }

    private static GenericRow nullRow() {
        Object[] values = new Object[ALL_TYPES.fieldCount()];
        values[31] = Integer.MAX_VALUE;
        values[32] = str("");
        return GenericRow.of(values);
    }

    /** Nested containers present but empty, and rows inside containers full of nulls. */
    private static GenericRow emptyContainersRow() {
        GenericRow row = nullRow();
        row.setField(25, new GenericArray(new Object[0]));
        row.setField(26, new GenericMap(Map.of()));
        row.setField(27, new GenericMap(Map.of()));
        row.setField(28, GenericRow.of(null, GenericRow.of(null, null)));
        row.setField(29, new GenericArray(new Object[] {new GenericArray(new Object[0])}));
        return row;
    }

    @Test
    void everyTypeSurvivesARoundTrip() throws Exception {
        Path path = file("all.parquet");
        List<GenericRow> rows = List.of(fullRow(), nullRow(), emptyContainersRow(), fullRow());
        ParquetTestFiles.write(path, ALL_TYPES, new Options(), rows);

        List<InternalRow> read = ParquetTestFiles.read(path, ALL_TYPES, null);

        assertThat(read).hasSize(4);
        GenericRow expectedFull = fullRow();
        assertThat(read.get(0)).isEqualTo(expectedFull);
        assertThat(read.get(1)).isEqualTo(nullRow());
        assertThat(read.get(2)).isEqualTo(emptyContainersRow());
        assertThat(read.get(3)).isEqualTo(expectedFull);
    }

    @Test
    void multisetIsStoredAsAMapOfCounts() throws Exception {
        RowType type = new RowType(List.of(FIELD(0, "m", MULTISET(INT()))));
        Path path = file("mset.parquet");
        ParquetTestFiles.write(path, type, new Options(), List.of(GenericRow.of(multiset(3, 3, 1, 1))));

        RowType asMap = new RowType(List.of(FIELD(0, "m", MAP(INT().notNull(), INT().notNull()))));
        assertThat(ParquetTestFiles.read(path, asMap, null))
                .containsExactly(GenericRow.of(new GenericMap(Map.of(3, 3, 1, 1))));
        assertThat(ParquetTestFiles.read(path, type, null)).containsExactly(GenericRow.of(multiset(3, 3, 1, 1)));
    }

    /** A MULTISET value: element, count, element, count, ... */
    static GenericMap multiset(Object... elementCounts) {
        Map<Object, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < elementCounts.length; i += 2) {
            m.put(elementCounts[i], elementCounts[i + 1]);
        }
        return new GenericMap(m);
    }

    @Test
    void manyRowsCrossPagesAndDictionaryFallback() throws Exception {
        RowType type = new RowType(List.of(
                FIELD(0, "id", BIGINT().notNull()),
                FIELD(1, "s", STRING()),
                FIELD(2, "b", BYTES()),
                FIELD(3, "dec", DECIMAL(38, 2)),
                FIELD(4, "ts", TIMESTAMP(9)),
                FIELD(5, "low", STRING())));
        Random random = new Random(42);
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            byte[] bytes = new byte[random.nextInt(12)];
            random.nextBytes(bytes);
            rows.add(GenericRow.of((long) i,
                    i % 7 == 0 ? null : str("value-" + random.nextInt(1_000_000)),
                    i % 11 == 0 ? null : bytes,
                    Decimal.fromBigDecimal(BigDecimal.valueOf(random.nextLong(), 2), 38, 2),
                    ts(random.nextLong() % 4_000_000_000_000L, random.nextInt(1_000_000)),
                    str("low-" + (i % 5))));
        }
        Path path = file("many.parquet");
        // a small dictionary page forces the high-cardinality columns to fall back to plain encoding
        ParquetTestFiles.write(path, type, Options.of("parquet.dictionary.page.size", "4096"), rows);

        List<InternalRow> read = ParquetTestFiles.read(path, type, null);

        assertThat(read).hasSize(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertThat(read.get(i)).as("row %s", i).isEqualTo(rows.get(i));
        }
    }

    @Test
    void rowsStayValidAfterLaterRowsAreRead() throws Exception {
        RowType type = new RowType(List.of(FIELD(0, "s", STRING()), FIELD(1, "b", BYTES())));
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            rows.add(GenericRow.of(str("v" + (i % 3)), new byte[] {(byte) (i % 3)}));
        }
        Path path = file("reuse.parquet");
        ParquetTestFiles.write(path, type, new Options(), rows);

        List<InternalRow> read = ParquetTestFiles.read(path, type, null);

        assertThat(read).containsExactlyElementsOf(rows);
        // dictionary-decoded byte[] values are per row: changing one must not change another
        read.get(0).binaryAt(1)[0] = 99;
        assertThat(read.get(3).binaryAt(1)).containsExactly(0);
    }

    @Test
    void nullInNotNullColumnIsRejectedAndTheWriterStaysUsable() throws Exception {
        RowType type = new RowType(List.of(FIELD(0, "id", INT().notNull())));
        Path path = file("notnull.parquet");
        FormatWriter writer = new ParquetFileFormat().writerFactory(type, new Options())
                .create(LocalFileIO.INSTANCE.newOutputStream(path, false));
        assertThatThrownBy(() -> writer.add(GenericRow.of((Object) null)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'id'");
        writer.add(GenericRow.of(5));
        writer.close();

        assertThat(writer.fieldStats()[0].nullCount()).isZero();
        assertThat(ParquetTestFiles.read(path, type, null)).containsExactly(GenericRow.of(5));
    }

    @Test
    void failureInsideANestedValueLeavesAnIncompleteFile() throws Exception {
        RowType type = new RowType(List.of(FIELD(0, "arr", ARRAY(INT().notNull()))));
        Path path = file("broken.parquet");
        FormatWriter writer = new ParquetFileFormat().writerFactory(type, new Options())
                .create(LocalFileIO.INSTANCE.newOutputStream(path, false));
        writer.add(GenericRow.of(new GenericArray(new Object[] {1})));
        assertThatThrownBy(() -> writer.add(GenericRow.of(new GenericArray(new Object[] {null}))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NOT NULL");
        assertThatThrownBy(() -> writer.add(GenericRow.of(new GenericArray(new Object[] {2}))))
                .isInstanceOf(IllegalStateException.class);
        writer.close(); // closes the stream without complaint

        assertThatThrownBy(writer::fieldStats).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ParquetTestFiles.read(path, type, null))
                .isInstanceOf(java.io.IOException.class)
                .hasMessageStartingWith("Cannot read Parquet file " + path);
    }

    @Test
    void emptyFileHasNoRows() throws Exception {
        Path path = file("empty.parquet");
        ParquetTestFiles.write(path, ALL_TYPES, new Options(), List.of());
        assertThat(ParquetTestFiles.read(path, ALL_TYPES, null)).isEmpty();
    }

    @Test
    void int96KeepsNanosecondsLongBefore1970() throws Exception {
        Timestamp t = Timestamp.fromLocalDateTime(LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1));
        RowType type = new RowType(List.of(new DataField(0, "t", TIMESTAMP(9))));
        Path path = file("old.parquet");
        ParquetTestFiles.write(path, type, new Options(), List.of(GenericRow.of(t)));

        InternalRow read = ParquetTestFiles.read(path, type, null).get(0);
        assertThat(read.timestampAt(0, 9).toLocalDateTime()).isEqualTo(LocalDateTime.of(1900, 1, 1, 0, 0, 0, 1));
    }
}
