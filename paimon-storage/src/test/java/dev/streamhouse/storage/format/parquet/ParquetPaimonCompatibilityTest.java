package dev.streamhouse.storage.format.parquet;

import static dev.streamhouse.storage.types.DataTypes.ARRAY;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
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
import static dev.streamhouse.storage.types.DataTypes.VARCHAR;
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

import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.hadoop.metadata.IndexReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A golden file written by Apache Paimon 1.3.1's own Parquet writer (default options, zstd) for the
 * row type and rows below: we must read it exactly, and writing the same rows must give the same
 * file.
 */
class ParquetPaimonCompatibilityTest {
    private static final String GOLDEN = "/parquet/paimon-1.3.1-all-types.parquet";

    private static final RowType TYPE = new RowType(List.of(
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
            FIELD(11, "bytes", BYTES()),
            FIELD(12, "dec9", DECIMAL(9, 2)),
            FIELD(13, "dec18", DECIMAL(18, 4)),
            FIELD(14, "dec38", DECIMAL(38, 10)),
            FIELD(15, "ts3", TIMESTAMP(3)),
            FIELD(16, "ts6", TIMESTAMP(6)),
            FIELD(17, "ts9", TIMESTAMP(9)),
            FIELD(18, "ltz3", TIMESTAMP_LTZ(3)),
            FIELD(19, "ltz9", TIMESTAMP_LTZ(9)),
            FIELD(20, "arr_row", ARRAY(ROW(FIELD(30, "x", INT()), FIELD(31, "y", STRING())))),
            FIELD(21, "map_arr", MAP(STRING(), ARRAY(INT()))),
            FIELD(22, "mset", MULTISET(STRING())),
            FIELD(23, "row_row", ROW(FIELD(32, "a", INT()), FIELD(33, "inner", ROW(FIELD(34, "b", STRING()))))),
            FIELD(24, "variant", VARIANT()),
            FIELD(25, "req", INT().notNull())));

    @TempDir
    java.nio.file.Path tmp;

    private static BinaryString s(String v) {
        return BinaryString.fromString(v);
    }

    private static List<GenericRow> rows() {
        Map<Object, Object> mapArr = new LinkedHashMap<>();
        mapArr.put(s("k1"), new GenericArray(new Object[] {1, null, 3}));
        mapArr.put(s(""), new GenericArray(new Object[0]));
        mapArr.put(s("k3"), null);
        GenericRow full = GenericRow.of(
                true, (byte) -128, (short) 32767, Integer.MIN_VALUE, Long.MAX_VALUE, 1.5f, -0.25d,
                -1, 86_399_999, s("ab"), s("héllo wörld 🌍"), new byte[] {(byte) 0xFF, 0, 127},
                Decimal.fromBigDecimal(new BigDecimal("9999999.99"), 9, 2),
                Decimal.fromBigDecimal(new BigDecimal("-99999999999999.9999"), 18, 4),
                Decimal.fromBigDecimal(new BigDecimal("9999999999999999999999999999.9999999999"), 38, 10),
                Timestamp.fromEpochMillis(1_700_000_000_123L),
                Timestamp.fromEpochMillis(-1L, 999_000),
                Timestamp.fromEpochMillis(-86_400_001L, 123_456),
                Timestamp.fromEpochMillis(0L),
                Timestamp.fromEpochMillis(253_402_300_799_999L, 999_999),
                new GenericArray(new Object[] {GenericRow.of(1, s("one")), null, GenericRow.of(null, null)}),
                new GenericMap(mapArr),
                ParquetRoundTripTest.multiset(s("a"), 2, s("b"), 1),
                GenericRow.of(7, GenericRow.of(s("deep"))),
                VariantBytes.pack(new byte[] {0x0C, 42}, new byte[] {1, 0, 0}),
                42);
        Object[] nulls = new Object[26];
        nulls[25] = Integer.MAX_VALUE;
        Object[] empties = nulls.clone();
        empties[20] = new GenericArray(new Object[0]);
        empties[21] = new GenericMap(Map.of());
        empties[22] = new GenericMap(Map.of());
        empties[23] = GenericRow.of(null, GenericRow.of((Object) null));
        empties[25] = 0;
        return List.of(full, GenericRow.of(nulls), GenericRow.of(empties));
    }

    private Path golden() throws Exception {
        java.nio.file.Path copy = tmp.resolve("golden.parquet");
        try (InputStream in = getClass().getResourceAsStream(GOLDEN)) {
            Files.copy(in, copy);
        }
        return new Path(copy.toString());
    }

    @Test
    void readsAFileWrittenByPaimon() throws Exception {
        assertThat(ParquetTestFiles.read(golden(), TYPE, null)).containsExactlyElementsOf(rows());
    }

    /**
     * Everything before the footer must be byte-identical. The footer must be the same length and
     * describe the same columns; its bytes are not compared because parquet-mr lists each chunk's
     * encodings in HashSet order, which varies between JVM runs (for Paimon itself as well).
     */
    @Test
    void writesTheSameBytesAsPaimon() throws Exception {
        java.nio.file.Path ours = tmp.resolve("ours.parquet");
        FieldStats[] stats = ParquetTestFiles.write(new Path(ours.toString()), TYPE, new Options(), rows());
        Path golden = golden();
        byte[] expected = Files.readAllBytes(java.nio.file.Path.of(golden.path()));
        byte[] actual = Files.readAllBytes(ours);

        assertThat(actual).hasSameSizeAs(expected);
        int dataEnd = expected.length - 8 - footerLength(expected);
        assertThat(footerLength(actual)).isEqualTo(footerLength(expected));
        assertThat(Arrays.copyOf(actual, dataEnd)).isEqualTo(Arrays.copyOf(expected, dataEnd));
        assertThat(describe(ParquetTestFiles.footer(new Path(ours.toString()))))
                .isEqualTo(describe(ParquetTestFiles.footer(golden)));

        assertThat(stats[3]).isEqualTo(new FieldStats(Integer.MIN_VALUE, Integer.MIN_VALUE, 2L));
        assertThat(stats[25]).isEqualTo(new FieldStats(0, Integer.MAX_VALUE, 0L));
    }

    private static int footerLength(byte[] file) {
        int at = file.length - 8;
        return (file[at] & 0xFF) | (file[at + 1] & 0xFF) << 8 | (file[at + 2] & 0xFF) << 16 | (file[at + 3] & 0xFF) << 24;
    }

    private static List<String> describe(ParquetMetadata footer) {
        List<String> out = new ArrayList<>();
        FileMetaData file = footer.getFileMetaData();
        out.add(file.getSchema().toString());
        out.add(file.getCreatedBy() + " " + file.getKeyValueMetaData());
        for (BlockMetaData block : footer.getBlocks()) {
            out.add("rows=" + block.getRowCount() + " size=" + block.getTotalByteSize()
                    + " compressed=" + block.getCompressedSize() + " start=" + block.getStartingPos());
            for (ColumnChunkMetaData c : block.getColumns()) {
                out.add(c.getPath() + " " + c.getPrimitiveType() + " " + c.getCodec() + " " + new TreeSet<>(c.getEncodings())
                        + " dictPages=" + new TreeSet<>(c.getEncodingStats().getDictionaryEncodings())
                        + " dataPages=" + new TreeSet<>(c.getEncodingStats().getDataEncodings())
                        + " stats=" + c.getStatistics() + " first=" + c.getFirstDataPageOffset()
                        + " dict=" + c.getDictionaryPageOffset() + " values=" + c.getValueCount() + " size="
                        + c.getTotalSize() + "/" + c.getTotalUncompressedSize()
                        + " colIndex=" + describe(c.getColumnIndexReference())
                        + " offsetIndex=" + describe(c.getOffsetIndexReference()));
            }
        }
        return out;
    }

    private static String describe(IndexReference reference) {
        return reference == null ? "none" : reference.getOffset() + "+" + reference.getLength();
    }
}
