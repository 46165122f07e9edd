package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

/**
 * A row read in place from the bytes {@link RowSerializer} wrote: {@link #pointTo} finds where each field
 * starts, and the getters read fixed-size values, strings (wrapped, not copied), compact decimals and
 * timestamps straight from those bytes. Only nested values (ARRAY, MAP, MULTISET, ROW) and wide decimals
 * and timestamps are decoded into objects, while pointing. The row is valid while its bytes stay
 * unchanged; it is reused by every {@code pointTo}. Not thread-safe.
 */
final class SerializedRowView implements InternalRow {
    /** Width of a field read in place by its getter; {@link #LENGTH_PREFIXED} and {@link #DECODED} are not fixed. */
    private static final int LENGTH_PREFIXED = 0;
    private static final int DECODED = -1;

    private final FieldCodec[] codecs;
    private final int[] widths;
    private final int bitmapBytes;
    private final int[] offsets;
    private final Object[] decoded;
    private final ByteReader reader = new ByteReader();
    private byte[] buffer;
    private RowKind kind = RowKind.INSERT;

    SerializedRowView(RowType type) {
        int arity = type.fieldCount();
        this.codecs = new FieldCodec[arity];
        this.widths = new int[arity];
        for (int i = 0; i < arity; i++) {
            codecs[i] = FieldCodecs.forType(type.typeAt(i));
            widths[i] = widthOf(type.typeAt(i));
        }
        this.bitmapBytes = (arity + 7) >>> 3;
        this.offsets = new int[arity];
        this.decoded = new Object[arity];
    }

    /** Bytes of a value read in place (the encodings of {@link FieldCodecs}), or how it is read otherwise. */
    private static int widthOf(DataType type) {
        switch (type.root()) {
            case BOOLEAN:
            case TINYINT:
                return 1;
            case SMALLINT:
                return 2;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case FLOAT:
                return 4;
            case BIGINT:
            case DOUBLE:
                return 8;
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
            case VARIANT:
                return LENGTH_PREFIXED;
            case DECIMAL:
                return ((DecimalType) type).isCompact() ? 8 : DECODED;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((TimestampType) type).isCompact() ? 8 : DECODED;
            default:
                return DECODED;
        }
    }

    /** Points at the row serialized at {@code offset} of {@code bytes}; returns the offset just past it. */
    int pointTo(byte[] bytes, int offset) {
        this.buffer = bytes;
        int position = offset + bitmapBytes;
        for (int i = 0; i < offsets.length; i++) {
            decoded[i] = null;
            if ((bytes[offset + (i >>> 3)] & (1 << (i & 7))) != 0) {
                offsets[i] = -1;
                continue;
            }
            offsets[i] = position;
            int width = widths[i];
            if (width > 0) {
                position += width;
            } else if (width == LENGTH_PREFIXED) {
                reader.reset(bytes, position);
                int length = reader.readVarInt();
                position = reader.position() + length;
            } else {
                reader.reset(bytes, position);
                decoded[i] = codecs[i].read(reader);
                position = reader.position();
            }
        }
        return position;
    }

    @Override
    public int arity() {
        return offsets.length;
    }

    @Override
    public RowKind rowKind() {
        return kind;
    }

    @Override
    public void setRowKind(RowKind kind) {
        this.kind = kind;
    }

    @Override
    public boolean isNullAt(int pos) {
        return offsets[pos] < 0;
    }

    @Override
    public boolean booleanAt(int pos) {
        return buffer[offsets[pos]] != 0;
    }

    @Override
    public byte byteAt(int pos) {
        return buffer[offsets[pos]];
    }

    @Override
    public short shortAt(int pos) {
        return (short) ByteWriter.SHORTS.get(buffer, offsets[pos]);
    }

    @Override
    public int intAt(int pos) {
        return (int) ByteWriter.INTS.get(buffer, offsets[pos]);
    }

    @Override
    public long longAt(int pos) {
        return (long) ByteWriter.LONGS.get(buffer, offsets[pos]);
    }

    @Override
    public float floatAt(int pos) {
        return Float.intBitsToFloat(intAt(pos));
    }

    @Override
    public double doubleAt(int pos) {
        return Double.longBitsToDouble(longAt(pos));
    }

    @Override
    public BinaryString stringAt(int pos) {
        reader.reset(buffer, offsets[pos]);
        int length = reader.readVarInt();
        return BinaryString.fromBytes(buffer, reader.position(), length);
    }

    @Override
    public Decimal decimalAt(int pos, int precision, int scale) {
        Object value = decoded[pos];
        return value != null ? (Decimal) value : Decimal.fromUnscaledLong(longAt(pos), precision, scale);
    }

    @Override
    public Timestamp timestampAt(int pos, int precision) {
        Object value = decoded[pos];
        return value != null ? (Timestamp) value : Timestamp.fromEpochMillis(longAt(pos));
    }

    @Override
    public byte[] binaryAt(int pos) {
        return reader.reset(buffer, offsets[pos]).readLengthPrefixed();
    }

    @Override
    public InternalArray arrayAt(int pos) {
        return (InternalArray) decoded[pos];
    }

    @Override
    public InternalMap mapAt(int pos) {
        return (InternalMap) decoded[pos];
    }

    @Override
    public InternalRow rowAt(int pos, int numFields) {
        return (InternalRow) decoded[pos];
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(kind.shortString()).append('(');
        ByteReader values = new ByteReader();
        for (int i = 0; i < offsets.length; i++) {
            out.append(i == 0 ? "" : ", ");
            if (offsets[i] < 0) {
                out.append("NULL");
            } else {
                Object value = decoded[i] != null ? decoded[i] : codecs[i].read(values.reset(buffer, offsets[i]));
                out.append(value instanceof byte[] ? java.util.Arrays.toString((byte[]) value) : value);
            }
        }
        return out.append(')').toString();
    }
}
