package dev.streamhouse.flink.cdc.mysql.snapshot;

import com.github.shyiko.mysql.binlog.event.deserialization.json.JsonBinary;
import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import java.io.IOException;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Year;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Turns the values of binlog row images (as Debezium's row deserializers decode them: integers
 * signed, strings as bytes, ENUM as a member number, SET as a bit mask, BIT as a bit set, temporal
 * values as {@code java.time} objects) into the Java values {@link MySqlType} documents, so that a
 * row read from the binlog equals the same row read over JDBC ({@link JdbcValues}), zero dates
 * included (the binlog has no value for a zero DATE or DATETIME, and second 0 for a zero TIMESTAMP). Built per table from the schema and column encodings {@code TableDiscovery} read.
 */
final class BinlogValues {

    private final CapturedTable table;
    private final Decoder[] decoders;
    /** Per column: what a zero date (no value in the image, or second 0 of a TIMESTAMP) reads as. */
    private final Object[] zeroDates;

    BinlogValues(CapturedTable table) {
        this.table = table;
        List<CdcColumn> columns = table.schema().columns();
        this.decoders = new Decoder[columns.size()];
        this.zeroDates = new Object[columns.size()];
        for (int i = 0; i < decoders.length; i++) {
            decoders[i] = decoderOf(columns.get(i), table.encoding(i));
            zeroDates[i] = columns.get(i).nullable() ? null : JdbcValues.zeroDate(columns.get(i).type());
        }
    }

    /** The row's values in schema order; the image must have one value per column. */
    Object[] row(Serializable[] image) {
        Object[] row = new Object[decoders.length];
        for (int i = 0; i < row.length; i++) {
            Serializable raw = image[i];
            row[i] = raw == null ? zeroDates[i] : decoders[i].decode(raw);
        }
        return row;
    }

    @FunctionalInterface
    private interface Decoder {
        Object decode(Serializable raw);
    }

    private Decoder decoderOf(CdcColumn column, CapturedTable.ColumnEncoding encoding) {
        MySqlType type = column.type();
        boolean unsigned = type.unsigned();
        return switch (type.family()) {
            case BIT -> type.length() <= 1 ? raw -> ((BitSet) raw).get(0) : raw -> bits((BitSet) raw, type.length());
            case BOOLEAN, TINYINT -> raw -> unsigned ? ((Number) raw).longValue() & 0xffL : ((Number) raw).longValue();
            case SMALLINT -> raw -> unsigned ? ((Number) raw).longValue() & 0xffffL : ((Number) raw).longValue();
            case MEDIUMINT -> raw -> unsigned ? ((Number) raw).longValue() & 0xffffffL : ((Number) raw).longValue();
            case INT -> raw -> unsigned ? ((Number) raw).longValue() & 0xffffffffL : ((Number) raw).longValue();
            case BIGINT -> unsigned
                    ? raw -> new BigDecimal(new BigInteger(Long.toUnsignedString(((Number) raw).longValue())))
                    : raw -> ((Number) raw).longValue();
            case YEAR -> raw -> raw instanceof Year year ? (long) year.getValue() : ((Number) raw).longValue();
            case FLOAT -> raw -> ((Number) raw).floatValue();
            case DOUBLE -> raw -> ((Number) raw).doubleValue();
            case DECIMAL -> raw -> raw instanceof BigDecimal d ? d : new BigDecimal(raw.toString());
            case BINARY -> raw -> padded((byte[]) raw, type.length());
            case VARBINARY, BLOB -> raw -> (byte[]) raw;
            case SPATIAL -> raw -> JdbcValues.withoutSrid((byte[]) raw);
            case ENUM -> raw -> member(encoding.members(), ((Number) raw).intValue());
            case SET -> raw -> members(encoding.members(), ((Number) raw).longValue());
            case JSON -> raw -> json(column, (byte[]) raw);
            case DATE -> raw -> (LocalDate) raw;
            case TIME -> raw -> (Duration) raw;
            case DATETIME -> raw -> (LocalDateTime) raw;
            case TIMESTAMP -> raw -> ((ZonedDateTime) raw).toInstant();
            case CHAR, VARCHAR, TEXT, OTHER -> textDecoder(column, encoding);
        };
    }

    private Decoder textDecoder(CdcColumn column, CapturedTable.ColumnEncoding encoding) {
        Charset charset = MySqlCharsets.forName(encoding.charset());
        return raw -> {
            if (raw instanceof String s) {
                return s;
            }
            if (charset == null) {
                throw new IllegalStateException("Cannot decode column '" + column.name() + "' of MySQL table "
                        + table.id() + " from the binlog: its character set " + encoding.charset() + " is not supported");
            }
            return new String((byte[]) raw, charset);
        };
    }

    private Object json(CdcColumn column, byte[] value) {
        try {
            return JsonBinary.parseAsString(value);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot decode JSON column '" + column.name() + "' of MySQL table "
                    + table.id() + " from the binlog: " + e.getMessage(), e);
        }
    }

    /** BIT(n) as big-endian bytes, (n + 7) / 8 of them, as JDBC reads it. */
    static byte[] bits(BitSet bits, int length) {
        byte[] bytes = new byte[(length + 7) / 8];
        for (int bit = bits.nextSetBit(0); bit >= 0; bit = bits.nextSetBit(bit + 1)) {
            bytes[bytes.length - 1 - bit / 8] |= (byte) (1 << (bit % 8));
        }
        return bytes;
    }

    /** The binlog drops a BINARY(n) value's trailing zero bytes; the column holds them. */
    static byte[] padded(byte[] value, int length) {
        return length > value.length ? Arrays.copyOf(value, length) : value;
    }

    private static String member(List<String> members, int number) {
        return number >= 1 && number <= members.size() ? members.get(number - 1) : "";
    }

    private static String members(List<String> members, long mask) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < members.size() && i < 64; i++) {
            if ((mask & (1L << i)) != 0) {
                if (s.length() > 0) {
                    s.append(',');
                }
                s.append(members.get(i));
            }
        }
        return s.toString();
    }
}
