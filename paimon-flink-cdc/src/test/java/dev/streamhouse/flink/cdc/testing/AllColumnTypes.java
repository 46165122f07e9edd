package dev.streamhouse.flink.cdc.testing;

/**
 * A table with a column of every MySQL type (and three character sets), and one row of values for
 * it: {@code CREATE TABLE t (" + COLUMNS + ")}, {@code INSERT INTO t VALUES (id, " + VALUES + ")}.
 */
public final class AllColumnTypes {

    public static final String COLUMNS = "id INT PRIMARY KEY, c_bool BOOLEAN, c_bit1 BIT(1), c_bit BIT(10), "
            + "c_tinyint TINYINT, c_tinyint_u TINYINT UNSIGNED, c_smallint SMALLINT, c_smallint_u SMALLINT UNSIGNED, "
            + "c_mediumint MEDIUMINT, c_mediumint_u MEDIUMINT UNSIGNED, c_int INT, c_int_u INT UNSIGNED, "
            + "c_bigint BIGINT, c_bigint_u BIGINT UNSIGNED, c_float FLOAT, c_double DOUBLE, c_real REAL, "
            + "c_decimal DECIMAL(10, 3), c_numeric NUMERIC(38, 0), c_bigdec DECIMAL(65, 10), "
            + "c_char CHAR(3), c_varchar VARCHAR(20), c_tinytext TINYTEXT, c_text TEXT, c_mediumtext MEDIUMTEXT, "
            + "c_longtext LONGTEXT, c_binary BINARY(3), c_varbinary VARBINARY(10), c_tinyblob TINYBLOB, c_blob BLOB, "
            + "c_mediumblob MEDIUMBLOB, c_longblob LONGBLOB, c_date DATE, c_time TIME, c_time3 TIME(3), "
            + "c_datetime DATETIME, c_datetime6 DATETIME(6), c_timestamp TIMESTAMP NULL, c_timestamp3 TIMESTAMP(3) NULL, "
            + "c_year YEAR, c_enum ENUM('a', 'b', 'it''s'), c_set SET('x', 'y', 'z'), c_json JSON, c_geometry GEOMETRY, "
            + "c_point POINT, c_latin VARCHAR(10) CHARACTER SET latin1, c_utf8 VARCHAR(10) CHARACTER SET utf8mb4";

    public static final String VALUES = "TRUE, b'1', b'1010101010', -128, 255, -32768, 65535, -8388608, 16777215, "
            + "-2147483648, 4294967295, -9223372036854775808, 18446744073709551615, 1.5, 2.25, 3.5, 1234567.891, "
            + "12345678901234567890123456789012345678, 12345.6789012345, 'ab ', 'hello', 'tt', 't', 'mt', 'lt', "
            + "x'0102', x'0a0b', x'01', x'02', x'03', x'04', '2024-02-29', '-838:59:59', '01:02:03.456', "
            + "'2024-01-02 03:04:05', '1000-01-02 03:04:05.123456', '2024-01-02 03:04:05', '2038-01-19 03:14:07.999', "
            + "2024, 'it''s', 'x,z', '{\"k\": [1, \"\u00e9\"]}', ST_GeomFromText('POINT(1 1)'), "
            + "ST_GeomFromText('POINT(2 3)'), '\u00e4\u00f6\u20ac', '\u00e9\ud83d\ude00'";

    private AllColumnTypes() {}
}
