package dev.streamhouse.flink.cdc.testing;

import org.apache.flink.types.Row;

import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A MySQL table of every column type, its declaration as a Flink table of the {@code mysql-cdc}
 * connector, and one row of values (the columns after {@code id}); shared by the table source's and
 * the syncs' tests.
 */
public final class AllTypes {
    private AllTypes() {}

    public static final String MYSQL_COLUMNS = "id INT PRIMARY KEY, c_bool BOOLEAN, c_bit1 BIT(1), c_bit BIT(10), "
            + "c_tinyint TINYINT, c_tinyint_u TINYINT UNSIGNED, c_smallint SMALLINT, c_smallint_u SMALLINT UNSIGNED, "
            + "c_mediumint MEDIUMINT, c_mediumint_u MEDIUMINT UNSIGNED, c_int INT, c_int_u INT UNSIGNED, "
            + "c_bigint BIGINT, c_bigint_u BIGINT UNSIGNED, c_float FLOAT, c_double DOUBLE, c_real REAL, "
            + "c_decimal DECIMAL(10, 3), c_numeric NUMERIC(38, 0), c_bigdec DECIMAL(65, 10), "
            + "c_char CHAR(3), c_varchar VARCHAR(20), c_tinytext TINYTEXT, c_text TEXT, c_mediumtext MEDIUMTEXT, "
            + "c_longtext LONGTEXT, c_binary BINARY(3), c_varbinary VARBINARY(10), c_tinyblob TINYBLOB, c_blob BLOB, "
            + "c_mediumblob MEDIUMBLOB, c_longblob LONGBLOB, c_date DATE, c_time TIME, c_time3 TIME(3), "
            + "c_datetime DATETIME, c_datetime6 DATETIME(6), c_timestamp TIMESTAMP NULL, c_timestamp3 TIMESTAMP(3) NULL, "
            + "c_year YEAR, c_enum ENUM('a', 'b'), c_set SET('x', 'y'), c_json JSON, c_geometry GEOMETRY, c_point POINT";

    public static final String FLINK_COLUMNS = "id INT, c_bool BOOLEAN, c_bit1 BOOLEAN, c_bit BINARY(2), "
            + "c_tinyint TINYINT, c_tinyint_u SMALLINT, c_smallint SMALLINT, c_smallint_u INT, "
            + "c_mediumint INT, c_mediumint_u INT, c_int INT, c_int_u BIGINT, "
            + "c_bigint BIGINT, c_bigint_u DECIMAL(20, 0), c_float FLOAT, c_double DOUBLE, c_real DOUBLE, "
            + "c_decimal DECIMAL(10, 3), c_numeric DECIMAL(38, 0), c_bigdec STRING, "
            + "c_char CHAR(3), c_varchar VARCHAR(20), c_tinytext STRING, c_text STRING, c_mediumtext STRING, "
            + "c_longtext STRING, c_binary BINARY(3), c_varbinary VARBINARY(10), c_tinyblob BYTES, c_blob BYTES, "
            + "c_mediumblob BYTES, c_longblob BYTES, c_date DATE, c_time TIME, c_time3 TIME(3), "
            + "c_datetime TIMESTAMP(0), c_datetime6 TIMESTAMP(6), c_timestamp TIMESTAMP_LTZ(0), "
            + "c_timestamp3 TIMESTAMP_LTZ(3), c_year INT, c_enum STRING, c_set STRING, c_json STRING, "
            + "c_geometry BYTES, c_point BYTES, PRIMARY KEY (id) NOT ENFORCED";

    public static final String VALUES = "TRUE, b'1', b'1010101010', -128, 255, -32768, 65535, -8388608, 16777215, "
            + "-2147483648, 4294967295, -9223372036854775808, 18446744073709551615, 1.5, 2.25, 3.5, 1234567.891, "
            + "12345678901234567890123456789012345678, 12345.6789012345, 'abc', 'hello', 'tt', 't', 'mt', 'lt', "
            + "x'010203', x'0a0b', x'01', x'02', x'03', x'04', '2024-02-29', '12:34:56', '01:02:03.456', "
            + "'2024-01-02 03:04:05', '2024-01-02 03:04:05.123456', '2024-01-02 03:04:05', '2024-01-02 03:04:05.678', "
            + "2024, 'b', 'x,y', '{\"k\": 1}', ST_GeomFromText('POINT(1 1)'), ST_GeomFromText('POINT(2 3)')";

    /** The values of {@link #VALUES} as {@link #describe} shows a Flink row of them. */
    public static final String EXPECTED_VALUES = "true, true, 0x02aa, -128, 255, -32768, 65535, -8388608, 16777215, "
            + "-2147483648, 4294967295, -9223372036854775808, 18446744073709551615, 1.5, 2.25, 3.5, 1234567.891, "
            + "12345678901234567890123456789012345678, 12345.6789012345, abc, hello, tt, t, mt, lt, "
            + "0x010203, 0x0a0b, 0x01, 0x02, 0x03, 0x04, 2024-02-29, 12:34:56, 01:02:03.456, "
            + "2024-01-02T03:04:05, 2024-01-02T03:04:05.123456, 2024-01-02T03:04:05Z, 2024-01-02T03:04:05.678Z, "
            + "2024, b, x,y, {\"k\": 1}, 0x0101000000000000000000f03f000000000000f03f, "
            + "0x010100000000000000000000400000000000000840";

    /** A Flink row as {@code <kind> v1, v2, ...}, binary values in hex. */
    public static String describe(Row row) {
        return row.getKind().shortString() + " " + IntStream.range(0, row.getArity()).mapToObj(i -> {
            Object v = row.getField(i);
            if (v instanceof byte[] b) {
                StringBuilder s = new StringBuilder("0x");
                for (byte x : b) {
                    s.append(String.format("%02x", x));
                }
                return s.toString();
            }
            return String.valueOf(v);
        }).collect(Collectors.joining(", "));
    }
}
