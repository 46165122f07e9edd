package dev.streamhouse.flink.cdc.mysql.snapshot;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.MySqlType;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;

/**
 * Column values read over JDBC as the Java values {@link MySqlType} documents (the same values
 * Debezium's records and {@link BinlogValues} give), and key values bound as statement parameters.
 * The connection's session time zone must be UTC ({@code SET time_zone = '+00:00'}) so that
 * TIMESTAMP values read as UTC. Zero dates ({@code '0000-00-00'}) read as Debezium's records have
 * them: a zero DATE or DATETIME is null in a nullable column and 1970-01-01 in a NOT NULL one; a
 * zero TIMESTAMP (stored as second 0) is 1970-01-01T00:00:00Z.
 */
final class JdbcValues {

    private static final int SRID_BYTES = 4;

    private JdbcValues() {}

    /** Reads one column of the current row (1-based index). */
    @FunctionalInterface
    interface ColumnReader {
        Object read(ResultSet rs, int index) throws SQLException;
    }

    /** A reader per column of {@code schema}, in column order. */
    static ColumnReader[] readers(CdcSchema schema) {
        List<CdcColumn> columns = schema.columns();
        ColumnReader[] readers = new ColumnReader[columns.size()];
        for (int i = 0; i < readers.length; i++) {
            ColumnReader reader = readerOf(columns.get(i).type());
            Object zero = columns.get(i).nullable() ? null : zeroDate(columns.get(i).type());
            readers[i] = zero == null ? reader : (rs, index) -> {
                Object value = reader.read(rs, index);
                return value == null ? zero : value;
            };
        }
        return readers;
    }

    /** What a zero date of a NOT NULL column of this type reads as; null for other types. */
    static Object zeroDate(MySqlType type) {
        return switch (type.family()) {
            case DATE -> LocalDate.EPOCH;
            case DATETIME -> LocalDateTime.of(1970, 1, 1, 0, 0);
            case TIMESTAMP -> Instant.EPOCH;
            case BOOLEAN, BIT, TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT, YEAR, FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR,
                    TEXT, ENUM, SET, JSON, BINARY, VARBINARY, BLOB, TIME, SPATIAL, OTHER -> null;
        };
    }

    private static ColumnReader readerOf(MySqlType type) {
        return switch (type.family()) {
            case BIT -> type.length() <= 1 ? (rs, i) -> nullable(rs, rs.getBoolean(i)) : ResultSet::getBytes;
            case BOOLEAN, TINYINT, SMALLINT, MEDIUMINT, INT -> (rs, i) -> nullable(rs, rs.getLong(i));
            case YEAR -> JdbcValues::year;
            case BIGINT -> type.unsigned() ? JdbcValues::unsignedBigint : (rs, i) -> nullable(rs, rs.getLong(i));
            case FLOAT -> (rs, i) -> nullable(rs, rs.getFloat(i));
            case DOUBLE -> (rs, i) -> nullable(rs, rs.getDouble(i));
            case DECIMAL -> ResultSet::getBigDecimal;
            case BINARY, VARBINARY, BLOB -> ResultSet::getBytes;
            case SPATIAL -> (rs, i) -> withoutSrid(rs.getBytes(i));
            case DATE -> JdbcValues::date;
            case TIME -> (rs, i) -> MySqlType.parseTime(rs.getString(i));
            case DATETIME -> JdbcValues::dateTime;
            case TIMESTAMP -> (rs, i) -> {
                LocalDateTime utc = dateTime(rs, i);
                if (utc != null) {
                    return utc.toInstant(ZoneOffset.UTC);
                }
                return rs.getString(i) == null ? null : Instant.EPOCH;
            };
            case CHAR, VARCHAR, TEXT, ENUM, SET, JSON, OTHER -> ResultSet::getString;
        };
    }

    /** Binds a key value (as {@link MySqlType} documents it) as a statement parameter. */
    static void bind(PreparedStatement statement, int index, Object value) throws SQLException {
        if (value instanceof Instant instant) {
            statement.setString(index, LocalDateTime.ofInstant(instant, ZoneOffset.UTC).toString().replace('T', ' '));
        } else if (value instanceof LocalDateTime dateTime) {
            statement.setString(index, dateTime.toString().replace('T', ' '));
        } else if (value instanceof LocalDate date) {
            statement.setString(index, date.toString());
        } else if (value instanceof Duration duration) {
            statement.setString(index, formatTime(duration));
        } else if (value instanceof byte[] bytes) {
            statement.setBytes(index, bytes);
        } else {
            statement.setObject(index, value);
        }
    }

    private static Long year(ResultSet rs, int i) throws SQLException {
        String s = rs.getString(i);
        return s == null ? null : Long.parseLong(s.length() > 4 ? s.substring(0, 4) : s);
    }

    /** Read as text: a BIGINT UNSIGNED may not fit a long. */
    private static BigDecimal unsignedBigint(ResultSet rs, int i) throws SQLException {
        String s = rs.getString(i);
        return s == null ? null : new BigDecimal(s);
    }

    /** Read as a {@code LocalDate} directly; zero or invalid dates (which the driver refuses) as text. */
    private static LocalDate date(ResultSet rs, int i) throws SQLException {
        try {
            return rs.getObject(i, LocalDate.class);
        } catch (SQLException | RuntimeException e) {
            return parseDate(rs.getString(i));
        }
    }

    private static LocalDateTime dateTime(ResultSet rs, int i) throws SQLException {
        try {
            return rs.getObject(i, LocalDateTime.class);
        } catch (SQLException | RuntimeException e) {
            return parseDateTime(rs.getString(i));
        }
    }

    private static Object nullable(ResultSet rs, Object value) throws SQLException {
        return rs.wasNull() ? null : value;
    }

    /** MySQL's geometry value is a 4-byte SRID and the WKB; Debezium (and so these records) keep the WKB. */
    static byte[] withoutSrid(byte[] value) {
        return value == null || value.length < SRID_BYTES ? value : Arrays.copyOfRange(value, SRID_BYTES, value.length);
    }

    static LocalDate parseDate(String text) {
        if (text == null || text.startsWith("0000-00-00")) {
            return null;
        }
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    static LocalDateTime parseDateTime(String text) {
        if (text == null || text.startsWith("0000-00-00")) {
            return null;
        }
        try {
            return LocalDateTime.parse(text.replace(' ', 'T'));
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    static String formatTime(Duration duration) {
        Duration abs = duration.abs();
        long seconds = abs.getSeconds();
        return String.format("%s%d:%02d:%02d.%06d", duration.isNegative() ? "-" : "", seconds / 3600,
                (seconds / 60) % 60, seconds % 60, abs.getNano() / 1000);
    }
}
