package dev.streamhouse.flink.cdc.source.split;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkRange;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary forms the MySQL CDC source puts into checkpoints: strings (UTF-8 with an int length),
 * binlog positions, key values (a type tag, then the value), chunk ranges, schemas and captured
 * tables. Part of the split and enumerator state formats: tags and layouts only grow.
 */
public final class StateCodec {

    private static final byte NULL = 0;
    private static final byte LONG = 1;
    private static final byte DECIMAL = 2;
    private static final byte DOUBLE = 3;
    private static final byte FLOAT = 4;
    private static final byte STRING = 5;
    private static final byte BYTES = 6;
    private static final byte BOOLEAN = 7;
    private static final byte DATE = 8;
    private static final byte DATE_TIME = 9;
    private static final byte INSTANT = 10;
    private static final byte DURATION = 11;

    private StateCodec() {}

    public static void writeString(DataOutput out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    public static String readString(DataInput in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    public static void writeNullableString(DataOutput out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            writeString(out, s);
        }
    }

    public static String readNullableString(DataInput in) throws IOException {
        return in.readBoolean() ? readString(in) : null;
    }

    public static void writePosition(DataOutput out, BinlogPosition position) throws IOException {
        out.writeBoolean(position != null);
        if (position != null) {
            writeString(out, position.file());
            out.writeLong(position.position());
        }
    }

    public static BinlogPosition readPosition(DataInput in) throws IOException {
        return in.readBoolean() ? new BinlogPosition(readString(in), in.readLong()) : null;
    }

    public static void writeValue(DataOutput out, Object value) throws IOException {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof Long v) {
            out.writeByte(LONG);
            out.writeLong(v);
        } else if (value instanceof BigDecimal v) {
            out.writeByte(DECIMAL);
            writeString(out, v.toString());
        } else if (value instanceof Double v) {
            out.writeByte(DOUBLE);
            out.writeDouble(v);
        } else if (value instanceof Float v) {
            out.writeByte(FLOAT);
            out.writeFloat(v);
        } else if (value instanceof String v) {
            out.writeByte(STRING);
            writeString(out, v);
        } else if (value instanceof byte[] v) {
            out.writeByte(BYTES);
            out.writeInt(v.length);
            out.write(v);
        } else if (value instanceof Boolean v) {
            out.writeByte(BOOLEAN);
            out.writeBoolean(v);
        } else if (value instanceof LocalDate v) {
            out.writeByte(DATE);
            out.writeLong(v.toEpochDay());
        } else if (value instanceof LocalDateTime v) {
            out.writeByte(DATE_TIME);
            out.writeLong(v.toEpochSecond(ZoneOffset.UTC));
            out.writeInt(v.getNano());
        } else if (value instanceof Instant v) {
            out.writeByte(INSTANT);
            out.writeLong(v.getEpochSecond());
            out.writeInt(v.getNano());
        } else if (value instanceof Duration v) {
            out.writeByte(DURATION);
            out.writeLong(v.getSeconds());
            out.writeInt(v.getNano());
        } else {
            throw new IOException("Cannot write a key value of type " + value.getClass().getName() + " to a checkpoint");
        }
    }

    public static Object readValue(DataInput in) throws IOException {
        byte tag = in.readByte();
        switch (tag) {
            case NULL:
                return null;
            case LONG:
                return in.readLong();
            case DECIMAL:
                return new BigDecimal(readString(in));
            case DOUBLE:
                return in.readDouble();
            case FLOAT:
                return in.readFloat();
            case STRING:
                return readString(in);
            case BYTES: {
                byte[] b = new byte[in.readInt()];
                in.readFully(b);
                return b;
            }
            case BOOLEAN:
                return in.readBoolean();
            case DATE:
                return LocalDate.ofEpochDay(in.readLong());
            case DATE_TIME:
                return LocalDateTime.ofEpochSecond(in.readLong(), in.readInt(), ZoneOffset.UTC);
            case INSTANT:
                return Instant.ofEpochSecond(in.readLong(), in.readInt());
            case DURATION:
                return Duration.ofSeconds(in.readLong(), in.readInt());
            default:
                throw new IOException("Cannot read a key value with type tag " + tag + " from a checkpoint");
        }
    }

    public static void writeRange(DataOutput out, ChunkRange range) throws IOException {
        writeKey(out, range.lower());
        writeKey(out, range.upper());
    }

    public static ChunkRange readRange(DataInput in) throws IOException {
        return new ChunkRange(readKey(in), readKey(in));
    }

    private static void writeKey(DataOutput out, Object[] key) throws IOException {
        out.writeInt(key == null ? -1 : key.length);
        if (key != null) {
            for (Object v : key) {
                writeValue(out, v);
            }
        }
    }

    private static Object[] readKey(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        Object[] key = new Object[length];
        for (int i = 0; i < length; i++) {
            key[i] = readValue(in);
        }
        return key;
    }

    public static void writeTableId(DataOutput out, CdcTableId table) throws IOException {
        writeString(out, table.database());
        writeString(out, table.table());
    }

    public static CdcTableId readTableId(DataInput in) throws IOException {
        return new CdcTableId(readString(in), readString(in));
    }

    public static void writeSchema(DataOutput out, CdcSchema schema) throws IOException {
        writeTableId(out, schema.table());
        out.writeInt(schema.version());
        out.writeInt(schema.columns().size());
        for (CdcColumn c : schema.columns()) {
            writeString(out, c.name());
            writeString(out, c.type().name());
            out.writeBoolean(c.type().unsigned());
            out.writeInt(c.type().length());
            out.writeInt(c.type().scale());
            out.writeBoolean(c.nullable());
            writeNullableString(out, c.comment());
        }
        out.writeInt(schema.primaryKeys().size());
        for (String key : schema.primaryKeys()) {
            writeString(out, key);
        }
    }

    public static CdcSchema readSchema(DataInput in) throws IOException {
        CdcTableId table = readTableId(in);
        int version = in.readInt();
        int count = in.readInt();
        List<CdcColumn> columns = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = readString(in);
            MySqlType type = new MySqlType(readString(in), in.readBoolean(), in.readInt(), in.readInt());
            columns.add(new CdcColumn(name, type, in.readBoolean(), readNullableString(in)));
        }
        int keyCount = in.readInt();
        List<String> keys = new ArrayList<>(keyCount);
        for (int i = 0; i < keyCount; i++) {
            keys.add(readString(in));
        }
        return new CdcSchema(table, columns, keys, version);
    }

    public static void writeTable(DataOutput out, CapturedTable table) throws IOException {
        writeSchema(out, table.schema());
        for (CapturedTable.ColumnEncoding e : table.encodings()) {
            writeNullableString(out, e.charset());
            writeNullableString(out, e.collation());
            out.writeInt(e.members().size());
            for (String m : e.members()) {
                writeString(out, m);
            }
        }
    }

    public static CapturedTable readTable(DataInput in) throws IOException {
        CdcSchema schema = readSchema(in);
        List<CapturedTable.ColumnEncoding> encodings = new ArrayList<>(schema.columns().size());
        for (int i = 0; i < schema.columns().size(); i++) {
            String charset = readNullableString(in);
            String collation = readNullableString(in);
            int count = in.readInt();
            List<String> members = new ArrayList<>(count);
            for (int m = 0; m < count; m++) {
                members.add(readString(in));
            }
            encodings.add(new CapturedTable.ColumnEncoding(charset, collation, members));
        }
        return new CapturedTable(schema, encodings);
    }
}
