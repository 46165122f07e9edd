package dev.streamhouse.flink.common.data;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RowDataViewTest {
    @TempDir
    java.nio.file.Path tmp;

    private static final RowType TYPE = DataTypes.ROW(
            DataTypes.FIELD(0, "b", DataTypes.BOOLEAN()),
            DataTypes.FIELD(1, "ti", DataTypes.TINYINT()),
            DataTypes.FIELD(2, "si", DataTypes.SMALLINT()),
            DataTypes.FIELD(3, "i", DataTypes.INT()),
            DataTypes.FIELD(4, "bi", DataTypes.BIGINT()),
            DataTypes.FIELD(5, "f", DataTypes.FLOAT()),
            DataTypes.FIELD(6, "d", DataTypes.DOUBLE()),
            DataTypes.FIELD(7, "c", DataTypes.CHAR(3)),
            DataTypes.FIELD(8, "s", DataTypes.STRING()),
            DataTypes.FIELD(9, "dec", DataTypes.DECIMAL(10, 2)),
            DataTypes.FIELD(10, "bigdec", DataTypes.DECIMAL(38, 10)),
            DataTypes.FIELD(11, "dt", DataTypes.DATE()),
            DataTypes.FIELD(12, "tm", DataTypes.TIME()),
            DataTypes.FIELD(13, "ts3", DataTypes.TIMESTAMP(3)),
            DataTypes.FIELD(14, "ts9", DataTypes.TIMESTAMP(9)),
            DataTypes.FIELD(15, "ltz", DataTypes.TIMESTAMP_LTZ(6)),
            DataTypes.FIELD(16, "bin", DataTypes.BINARY(4)),
            DataTypes.FIELD(17, "vbin", DataTypes.BYTES()),
            DataTypes.FIELD(18, "arr", DataTypes.ARRAY(DataTypes.INT())),
            DataTypes.FIELD(19, "sarr", DataTypes.ARRAY(DataTypes.STRING())),
            DataTypes.FIELD(20, "m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
            DataTypes.FIELD(21, "ms", DataTypes.MULTISET(DataTypes.STRING())),
            DataTypes.FIELD(22, "r", DataTypes.ROW(DataTypes.FIELD(23, "x", DataTypes.INT()),
                    DataTypes.FIELD(24, "y", DataTypes.STRING()))),
            DataTypes.FIELD(25, "n", DataTypes.STRING()));

    /** The same row type in Flink's logical types, for Flink's binary row format. */
    private static final LogicalType[] FLINK_TYPES = {
            new BooleanType(), new TinyIntType(), new SmallIntType(), new IntType(), new BigIntType(),
            new FloatType(), new DoubleType(), new CharType(3), new VarCharType(VarCharType.MAX_LENGTH),
            new DecimalType(10, 2), new DecimalType(38, 10), new DateType(), new TimeType(0),
            new TimestampType(3), new TimestampType(9), new LocalZonedTimestampType(6), new BinaryType(4),
            new VarBinaryType(VarBinaryType.MAX_LENGTH), new ArrayType(new IntType()),
            new ArrayType(new VarCharType(VarCharType.MAX_LENGTH)),
            new MapType(new VarCharType(VarCharType.MAX_LENGTH), new IntType()),
            new MultisetType(new VarCharType(VarCharType.MAX_LENGTH)),
            new org.apache.flink.table.types.logical.RowType(List.of(
                    new org.apache.flink.table.types.logical.RowType.RowField("x", new IntType()),
                    new org.apache.flink.table.types.logical.RowType.RowField("y",
                            new VarCharType(VarCharType.MAX_LENGTH)))),
            new VarCharType(VarCharType.MAX_LENGTH)};

    private static final long MILLIS = 1_700_000_123_456L;

    private static GenericRowData flinkRow() {
        Map<StringData, Integer> map = new LinkedHashMap<>();
        map.put(StringData.fromString("k1"), 1);
        map.put(StringData.fromString("k2"), null);
        Map<StringData, Integer> multiset = new LinkedHashMap<>();
        multiset.put(StringData.fromString("e"), 3);
        GenericRowData r = GenericRowData.ofKind(org.apache.flink.types.RowKind.UPDATE_AFTER,
                true, (byte) -7, (short) 300, 42, 9_000_000_000L, 1.5f, -2.25d,
                StringData.fromString("abc"), StringData.fromString("héllo wörld ✓"),
                DecimalData.fromBigDecimal(new BigDecimal("12345678.91"), 10, 2),
                DecimalData.fromBigDecimal(new BigDecimal("1234567890123456789012345678.0123456789"), 38, 10),
                19_000, 45_296_000,
                TimestampData.fromEpochMillis(MILLIS),
                TimestampData.fromEpochMillis(MILLIS, 789_123),
                TimestampData.fromEpochMillis(MILLIS, 456_000),
                new byte[] {1, 2, 3, 4}, new byte[] {9, 8},
                new GenericArrayData(new Integer[] {1, null, 3}),
                new GenericArrayData(new Object[] {StringData.fromString("a"), StringData.fromString("")}),
                new GenericMapData(map), new GenericMapData(multiset),
                GenericRowData.of(5, StringData.fromString("nested")),
                null);
        return r;
    }

    private static GenericRow storageRow() {
        Map<Object, Object> map = new LinkedHashMap<>();
        map.put(BinaryString.fromString("k1"), 1);
        map.put(BinaryString.fromString("k2"), null);
        Map<Object, Object> multiset = new LinkedHashMap<>();
        multiset.put(BinaryString.fromString("e"), 3);
        return GenericRow.ofKind(RowKind.UPDATE_AFTER,
                true, (byte) -7, (short) 300, 42, 9_000_000_000L, 1.5f, -2.25d,
                BinaryString.fromString("abc"), BinaryString.fromString("héllo wörld ✓"),
                Decimal.fromBigDecimal(new BigDecimal("12345678.91"), 10, 2),
                Decimal.fromBigDecimal(new BigDecimal("1234567890123456789012345678.0123456789"), 38, 10),
                19_000, 45_296_000,
                Timestamp.fromEpochMillis(MILLIS),
                Timestamp.fromEpochMillis(MILLIS, 789_123),
                Timestamp.fromEpochMillis(MILLIS, 456_000),
                new byte[] {1, 2, 3, 4}, new byte[] {9, 8},
                new GenericArray(new Object[] {1, null, 3}),
                new GenericArray(new Object[] {BinaryString.fromString("a"), BinaryString.fromString("")}),
                new GenericMap(map), new GenericMap(multiset),
                GenericRow.of(5, BinaryString.fromString("nested")),
                null);
    }

    @Test
    void genericFlinkRowReadsAsTheSameStorageRow() {
        RowDataView view = new RowDataView(flinkRow());
        assertThat(InternalRowUtils.copyToGeneric(view, TYPE)).isEqualTo(storageRow());
    }

    @Test
    void binaryFlinkRowReadsAsTheSameStorageRow() {
        RowData binary = new RowDataSerializer(FLINK_TYPES).toBinaryRow(flinkRow());
        RowDataView view = new RowDataView(binary);
        assertThat(view.rowKind()).isEqualTo(RowKind.UPDATE_AFTER);
        assertThat(InternalRowUtils.copyToGeneric(view, TYPE)).isEqualTo(storageRow());
    }

    @Test
    void everyRowKindMaps() {
        for (org.apache.flink.types.RowKind kind : org.apache.flink.types.RowKind.values()) {
            RowDataView view = new RowDataView(GenericRowData.ofKind(kind, 1));
            assertThat(view.rowKind().shortString()).isEqualTo(kind.shortString());
        }
        RowDataView view = new RowDataView(GenericRowData.of(1));
        view.setRowKind(RowKind.DELETE);
        assertThat(view.rowKind()).isEqualTo(RowKind.DELETE);
        assertThat(view.row().getRowKind()).as("the Flink row is not modified")
                .isEqualTo(org.apache.flink.types.RowKind.INSERT);
    }

    @Test
    void stringsInOneHeapSegmentAreNotCopied() {
        byte[] memory = "xxhelloyy".getBytes(StandardCharsets.UTF_8);
        BinaryStringData s = BinaryStringData.fromAddress(
                new MemorySegment[] {MemorySegmentFactory.wrap(memory)}, 2, 5);
        BinaryString converted = FlinkValues.toStorage(s);
        assertThat(converted.toString()).isEqualTo("hello");
        assertThat(converted.rawBytes()).isSameAs(memory);
        assertThat(converted.rawOffset()).isEqualTo(2);

        // Spread over two segments: copied into one array.
        BinaryStringData split = BinaryStringData.fromAddress(new MemorySegment[] {
                MemorySegmentFactory.wrap("xxhe".getBytes(StandardCharsets.UTF_8)),
                MemorySegmentFactory.wrap("lloyy".getBytes(StandardCharsets.UTF_8))}, 2, 5);
        assertThat(FlinkValues.toStorage(split).toString()).isEqualTo("hello");
    }

    @Test
    void everyTypeSurvivesATableWriteAndRead() throws Exception {
        Schema.Builder b = Schema.newBuilder();
        for (DataField f : TYPE.fields()) {
            b.column(f.name(), f.type());
        }
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), b.build());
        GenericRowData insert = flinkRow();
        insert.setRowKind(org.apache.flink.types.RowKind.INSERT);
        try (TableWrite w = table.newWrite()) {
            w.write(new RowDataView(new RowDataSerializer(FLINK_TYPES).toBinaryRow(insert)));
            w.write(new RowDataView(insert));
            table.newBatchCommit().commit(w.prepareCommit());
        }
        InternalRow expected = storageRow();
        expected.setRowKind(RowKind.INSERT);
        assertThat(TestTables.readAll(table)).containsExactly(expected.toString(), expected.toString());
    }
}
