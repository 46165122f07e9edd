package dev.streamhouse.flink.cdc.event;

import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;

/**
 * Flink's serializer of {@link CdcEvent}s between tasks (never Kryo, which cannot rebuild their
 * immutable lists): a kind byte, the schema (table, columns with their MySQL types, primary key,
 * version), then for a record its operation, source time, snapshot flag, row images (each value
 * tagged with its Java type, {@link MySqlType} lists them) and its {@link KafkaOrigin} if it has one. Events are immutable, so copies are the
 * events.
 */
public final class CdcEventSerializer extends TypeSerializerSingleton<CdcEvent> {
    private static final long serialVersionUID = 1L;

    public static final CdcEventSerializer INSTANCE = new CdcEventSerializer();

    private static final byte RECORD = 1;
    private static final byte SCHEMA_CHANGE = 2;

    private static final byte NULL = 0;
    private static final byte BOOLEAN = 1;
    private static final byte LONG = 2;
    private static final byte DECIMAL = 3;
    private static final byte FLOAT = 4;
    private static final byte DOUBLE = 5;
    private static final byte STRING = 6;
    private static final byte BYTES = 7;
    private static final byte DATE = 8;
    private static final byte DURATION = 9;
    private static final byte DATE_TIME = 10;
    private static final byte INSTANT = 11;
    private static final byte INTEGER = 12;

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public CdcEvent createInstance() {
        return null;
    }

    @Override
    public CdcEvent copy(CdcEvent from) {
        return from;
    }

    @Override
    public CdcEvent copy(CdcEvent from, CdcEvent reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(CdcEvent event, DataOutputView out) throws IOException {
        if (event instanceof CdcRecord r) {
            out.writeByte(RECORD);
            writeSchema(r.schema(), out);
            out.writeByte(r.op().ordinal());
            out.writeLong(r.sourceTimestampMillis());
            out.writeBoolean(r.snapshot());
            writeValues(r.before(), out);
            writeValues(r.after(), out);
            KafkaOrigin origin = r.kafkaOrigin();
            out.writeBoolean(origin != null);
            if (origin != null) {
                out.writeUTF(origin.topic());
                out.writeInt(origin.partition());
                out.writeLong(origin.offset());
                out.writeLong(origin.timestampMillis());
                out.writeUTF(origin.timestampType());
            }
        } else {
            CdcSchemaChange c = (CdcSchemaChange) event;
            out.writeByte(SCHEMA_CHANGE);
            writeSchema(c.schema(), out);
            writeNullableString(c.ddl(), out);
        }
    }

    @Override
    public CdcEvent deserialize(DataInputView in) throws IOException {
        byte kind = in.readByte();
        CdcSchema schema = readSchema(in);
        if (kind == RECORD) {
            CdcRecord.Op op = CdcRecord.Op.values()[in.readByte()];
            long time = in.readLong();
            boolean snapshot = in.readBoolean();
            Object[] before = readValues(in);
            Object[] after = readValues(in);
            KafkaOrigin origin = in.readBoolean()
                    ? new KafkaOrigin(in.readUTF(), in.readInt(), in.readLong(), in.readLong(), in.readUTF())
                    : null;
            return new CdcRecord(schema, op, before, after, time, snapshot, origin);
        }
        if (kind == SCHEMA_CHANGE) {
            return new CdcSchemaChange(schema, readNullableString(in));
        }
        throw new IOException("Corrupt CDC event: kind " + kind);
    }

    @Override
    public CdcEvent deserialize(CdcEvent reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    private static void writeSchema(CdcSchema s, DataOutputView out) throws IOException {
        out.writeUTF(s.table().database());
        out.writeUTF(s.table().table());
        out.writeInt(s.version());
        out.writeInt(s.columns().size());
        for (CdcColumn c : s.columns()) {
            out.writeUTF(c.name());
            out.writeUTF(c.type().name());
            out.writeBoolean(c.type().unsigned());
            out.writeInt(c.type().length());
            out.writeInt(c.type().scale());
            out.writeBoolean(c.nullable());
            writeNullableString(c.comment(), out);
        }
        out.writeInt(s.primaryKeys().size());
        for (String k : s.primaryKeys()) {
            out.writeUTF(k);
        }
    }

    private static CdcSchema readSchema(DataInputView in) throws IOException {
        CdcTableId table = new CdcTableId(in.readUTF(), in.readUTF());
        int version = in.readInt();
        int n = in.readInt();
        List<CdcColumn> columns = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            MySqlType type = new MySqlType(in.readUTF(), in.readBoolean(), in.readInt(), in.readInt());
            columns.add(new CdcColumn(name, type, in.readBoolean(), readNullableString(in)));
        }
        int k = in.readInt();
        List<String> keys = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            keys.add(in.readUTF());
        }
        return new CdcSchema(table, columns, keys, version);
    }

    private static void writeValues(Object[] values, DataOutputView out) throws IOException {
        if (values == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(values.length);
        for (Object v : values) {
            writeValue(v, out);
        }
    }

    private static Object[] readValues(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            values[i] = readValue(in);
        }
        return values;
    }

    private static void writeValue(Object v, DataOutputView out) throws IOException {
        if (v == null) {
            out.writeByte(NULL);
        } else if (v instanceof Boolean b) {
            out.writeByte(BOOLEAN);
            out.writeBoolean(b);
        } else if (v instanceof Long l) {
            out.writeByte(LONG);
            out.writeLong(l);
        } else if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            out.writeByte(INTEGER);
            out.writeInt(((Number) v).intValue());
        } else if (v instanceof BigDecimal d) {
            out.writeByte(DECIMAL);
            out.writeInt(d.scale());
            writeBytes(d.unscaledValue().toByteArray(), out);
        } else if (v instanceof Float f) {
            out.writeByte(FLOAT);
            out.writeFloat(f);
        } else if (v instanceof Double d) {
            out.writeByte(DOUBLE);
            out.writeDouble(d);
        } else if (v instanceof String s) {
            out.writeByte(STRING);
            writeBytes(s.getBytes(java.nio.charset.StandardCharsets.UTF_8), out);
        } else if (v instanceof byte[] b) {
            out.writeByte(BYTES);
            writeBytes(b, out);
        } else if (v instanceof LocalDate d) {
            out.writeByte(DATE);
            out.writeLong(d.toEpochDay());
        } else if (v instanceof Duration d) {
            out.writeByte(DURATION);
            out.writeLong(d.getSeconds());
            out.writeInt(d.getNano());
        } else if (v instanceof LocalDateTime t) {
            out.writeByte(DATE_TIME);
            out.writeLong(t.toLocalDate().toEpochDay());
            out.writeLong(t.toLocalTime().toNanoOfDay());
        } else if (v instanceof Instant t) {
            out.writeByte(INSTANT);
            out.writeLong(t.getEpochSecond());
            out.writeInt(t.getNano());
        } else {
            throw new IOException("Cannot serialize a CDC value of " + v.getClass().getName());
        }
    }

    private static Object readValue(DataInputView in) throws IOException {
        byte tag = in.readByte();
        switch (tag) {
            case NULL:
                return null;
            case BOOLEAN:
                return in.readBoolean();
            case LONG:
                return in.readLong();
            case INTEGER:
                return (long) in.readInt();
            case DECIMAL: {
                int scale = in.readInt();
                return new BigDecimal(new BigInteger(readBytes(in)), scale);
            }
            case FLOAT:
                return in.readFloat();
            case DOUBLE:
                return in.readDouble();
            case STRING:
                return new String(readBytes(in), java.nio.charset.StandardCharsets.UTF_8);
            case BYTES:
                return readBytes(in);
            case DATE:
                return LocalDate.ofEpochDay(in.readLong());
            case DURATION:
                return Duration.ofSeconds(in.readLong(), in.readInt());
            case DATE_TIME:
                return LocalDateTime.of(LocalDate.ofEpochDay(in.readLong()), LocalTime.ofNanoOfDay(in.readLong()));
            case INSTANT:
                return Instant.ofEpochSecond(in.readLong(), in.readInt());
            default:
                throw new IOException("Corrupt CDC value: tag " + tag);
        }
    }

    private static void writeBytes(byte[] b, DataOutputView out) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] readBytes(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("Corrupt CDC value: length " + n);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    private static void writeNullableString(String s, DataOutputView out) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            writeBytes(s.getBytes(java.nio.charset.StandardCharsets.UTF_8), out);
        }
    }

    private static String readNullableString(DataInputView in) throws IOException {
        return in.readBoolean() ? new String(readBytes(in), java.nio.charset.StandardCharsets.UTF_8) : null;
    }

    @Override
    public TypeSerializerSnapshot<CdcEvent> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The serializer's snapshot; it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<CdcEvent> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
