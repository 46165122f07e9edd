package dev.streamhouse.flink.source.testutils;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypes;
import org.apache.flink.types.Row;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table with a column of every type the Flink source supports (nested ones too), and rows of it
 * both as our internal values and as the Java objects Flink's default conversion gives for the
 * same values. The two are written out independently, so a mapping mistake shows as a difference.
 *
 * <p>Row 0 holds ordinary values, row 1 NULL in every nullable column (and NULL elements, keys'
 * values and fields inside nested values of row 0/2), row 2 extremes: negative numbers, pre-epoch
 * timestamps with nanos, 38-digit decimals, multi-byte UTF-8.
 */
public final class AllTypes {
    private AllTypes() {}

    public static final int ROWS = 3;

    public static Schema schema() {
        return Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("f_boolean", DataTypes.BOOLEAN())
                .column("f_tinyint", DataTypes.TINYINT())
                .column("f_smallint", DataTypes.SMALLINT())
                .column("f_bigint", DataTypes.BIGINT())
                .column("f_float", DataTypes.FLOAT())
                .column("f_double", DataTypes.DOUBLE())
                .column("f_decimal_10_2", DataTypes.DECIMAL(10, 2))
                .column("f_decimal_38_18", DataTypes.DECIMAL(38, 18))
                .column("f_char", DataTypes.CHAR(5))
                .column("f_varchar", DataTypes.VARCHAR(20))
                .column("f_string", DataTypes.STRING())
                .column("f_binary", DataTypes.BINARY(4))
                .column("f_bytes", DataTypes.BYTES())
                .column("f_date", DataTypes.DATE())
                .column("f_time", DataTypes.TIME(3))
                .column("f_ts3", DataTypes.TIMESTAMP(3))
                .column("f_ts6", DataTypes.TIMESTAMP(6))
                .column("f_ts9", DataTypes.TIMESTAMP(9))
                .column("f_ltz3", DataTypes.TIMESTAMP_LTZ(3))
                .column("f_ltz9", DataTypes.TIMESTAMP_LTZ(9))
                .column("f_array", DataTypes.ARRAY(DataTypes.INT()))
                .column("f_array_string", DataTypes.ARRAY(DataTypes.STRING()))
                .column("f_map", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.BIGINT()))
                .column("f_multiset", DataTypes.MULTISET(DataTypes.STRING().notNull()))
                .column("f_row", DataTypes.ROW(
                        field("a", DataTypes.INT()),
                        field("b", DataTypes.STRING()),
                        field("c", DataTypes.ROW(field("x", DataTypes.DECIMAL(38, 10)),
                                field("t", DataTypes.TIMESTAMP(9))))))
                .column("f_array_row", DataTypes.ARRAY(DataTypes.ROW(field("k", DataTypes.INT()),
                        field("v", DataTypes.STRING()))))
                .column("f_map_array", DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.ARRAY(DataTypes.DOUBLE())))
                .build();
    }

    private static DataField field(String name, DataType type) {
        return DataTypes.FIELD(0, name, type); // ids are assigned by the schema builder
    }

    /** Row {@code i} (0..2) in internal values. */
    public static InternalRow internalRow(int i) {
        switch (i) {
            case 0:
                return GenericRow.of(0, true, (byte) 7, (short) 300, 1L << 40, 1.5f, 2.25d,
                        Decimal.fromBigDecimal(new BigDecimal("12345678.90"), 10, 2),
                        Decimal.fromBigDecimal(new BigDecimal("12345678901234567890.123456789012345678"), 38, 18),
                        str("abcde"), str("varchar"), str("a string"),
                        new byte[] {1, 2, 3, 4}, new byte[] {9, 8, 7},
                        (int) LocalDate.of(2024, 2, 29).toEpochDay(),
                        45_296_789, // 12:34:56.789 in millis of the day
                        Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_000_000)),
                        Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_123_000)),
                        Timestamp.fromLocalDateTime(LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_123_456)),
                        Timestamp.fromInstant(Instant.parse("2024-02-29T12:34:56.789Z")),
                        Timestamp.fromInstant(Instant.parse("2024-02-29T12:34:56.123456789Z")),
                        new GenericArray(new Object[] {1, null, 3}),
                        new GenericArray(new Object[] {str("x"), str("yz")}),
                        map(str("one"), 1L, str("none"), null),
                        map(str("a"), 2, str("b"), 1),
                        GenericRow.of(42, str("inner"),
                                GenericRow.of(Decimal.fromBigDecimal(new BigDecimal("1234567890123456789012345678.0123456789"), 38, 10),
                                        Timestamp.fromLocalDateTime(LocalDateTime.of(2000, 1, 1, 0, 0, 0, 1)))),
                        new GenericArray(new Object[] {GenericRow.of(1, str("v1")), null, GenericRow.of(2, null)}),
                        map(1, new GenericArray(new Object[] {1.0d, 2.0d}), 2, null));
            case 1: {
                GenericRow r = new GenericRow(schema().fields().size());
                r.setField(0, 1);
                return r;
            }
            case 2:
                return GenericRow.of(2, false, Byte.MIN_VALUE, Short.MIN_VALUE, Long.MIN_VALUE, -Float.MAX_VALUE,
                        Double.MIN_VALUE,
                        Decimal.fromBigDecimal(new BigDecimal("-99999999.99"), 10, 2),
                        Decimal.fromBigDecimal(new BigDecimal("-99999999999999999999.999999999999999999"), 38, 18),
                        str("ü€😀ab"), str(""), str("日本語のテキスト"),
                        new byte[] {0, 0, 0, 0}, new byte[0],
                        (int) LocalDate.of(1900, 1, 1).toEpochDay(),
                        0,
                        Timestamp.fromLocalDateTime(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000)),
                        Timestamp.fromLocalDateTime(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000)),
                        Timestamp.fromLocalDateTime(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999)),
                        Timestamp.fromInstant(Instant.parse("1960-01-01T00:00:00.001Z")),
                        Timestamp.fromInstant(Instant.parse("1960-01-01T00:00:00.000000001Z")),
                        new GenericArray(new Object[0]),
                        new GenericArray(new Object[] {null}),
                        map(),
                        map(str("only"), 3),
                        GenericRow.of(null, null, null),
                        new GenericArray(new Object[0]),
                        map(-1, new GenericArray(new Object[] {null, -0.5d})));
            default:
                throw new IllegalArgumentException("no row " + i);
        }
    }

    /** Row {@code i} as Flink's default external conversion of the table's Flink type gives it. */
    public static Row externalRow(int i) {
        switch (i) {
            case 0:
                return Row.of(0, true, (byte) 7, (short) 300, 1L << 40, 1.5f, 2.25d,
                        new BigDecimal("12345678.90"),
                        new BigDecimal("12345678901234567890.123456789012345678"),
                        "abcde", "varchar", "a string",
                        new byte[] {1, 2, 3, 4}, new byte[] {9, 8, 7},
                        LocalDate.of(2024, 2, 29),
                        LocalTime.of(12, 34, 56, 789_000_000),
                        LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_000_000),
                        LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_123_000),
                        LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_123_456),
                        Instant.parse("2024-02-29T12:34:56.789Z"),
                        Instant.parse("2024-02-29T12:34:56.123456789Z"),
                        new Integer[] {1, null, 3},
                        new String[] {"x", "yz"},
                        javaMap("one", 1L, "none", null),
                        javaMap("a", 2, "b", 1),
                        Row.of(42, "inner", Row.of(new BigDecimal("1234567890123456789012345678.0123456789"),
                                LocalDateTime.of(2000, 1, 1, 0, 0, 0, 1))),
                        new Row[] {Row.of(1, "v1"), null, Row.of(2, null)},
                        javaMap(1, new Double[] {1.0d, 2.0d}, 2, null));
            case 1: {
                Row r = new Row(schema().fields().size());
                r.setField(0, 1);
                return r;
            }
            case 2:
                return Row.of(2, false, Byte.MIN_VALUE, Short.MIN_VALUE, Long.MIN_VALUE, -Float.MAX_VALUE,
                        Double.MIN_VALUE,
                        new BigDecimal("-99999999.99"),
                        new BigDecimal("-99999999999999999999.999999999999999999"),
                        "ü€😀ab", "", "日本語のテキスト",
                        new byte[] {0, 0, 0, 0}, new byte[0],
                        LocalDate.of(1900, 1, 1),
                        LocalTime.MIDNIGHT,
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999),
                        Instant.parse("1960-01-01T00:00:00.001Z"),
                        Instant.parse("1960-01-01T00:00:00.000000001Z"),
                        new Integer[0],
                        new String[] {null},
                        javaMap(),
                        javaMap("only", 3),
                        Row.of(null, null, null),
                        new Row[0],
                        javaMap(-1, new Double[] {null, -0.5d}));
            default:
                throw new IllegalArgumentException("no row " + i);
        }
    }

    public static List<InternalRow> internalRows() {
        List<InternalRow> out = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            out.add(internalRow(i));
        }
        return out;
    }

    private static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    private static GenericMap map(Object... kv) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return new GenericMap(m);
    }

    private static Map<Object, Object> javaMap(Object... kv) {
        Map<Object, Object> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }
}
