package dev.streamhouse.storage.mergetree.io;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.mergetree.KeyValue;

/**
 * A {@link KeyValue} seen as a row of the data file layout (docs/format.md §8.2): the key fields, then
 * {@code _SEQUENCE_NUMBER}, {@code _VALUE_KIND} (the row kind byte), then the value fields. Nothing is
 * copied; {@link #replace(KeyValue)} points the view at another KeyValue. The row kind of the view
 * itself is always +I (the change kind is the {@code _VALUE_KIND} column).
 */
public final class KeyValueFileRow implements InternalRow {
    private final int keyArity;
    private final int valueArity;
    private KeyValue kv;

    public KeyValueFileRow(int keyArity, int valueArity) {
        this.keyArity = keyArity;
        this.valueArity = valueArity;
    }

    /** Views {@code kv}; its key must have the key arity and its value the value arity. */
    public KeyValueFileRow replace(KeyValue kv) {
        this.kv = kv;
        return this;
    }

    private boolean isKey(int pos) {
        return pos < keyArity;
    }

    private int valuePos(int pos) {
        return pos - keyArity - 2;
    }

    @Override
    public int arity() {
        return keyArity + 2 + valueArity;
    }

    @Override
    public RowKind rowKind() {
        return RowKind.INSERT;
    }

    @Override
    public void setRowKind(RowKind kind) {
        throw new UnsupportedOperationException("Cannot set the row kind of a data file row: it is _VALUE_KIND");
    }

    @Override
    public boolean isNullAt(int pos) {
        if (isKey(pos)) {
            return kv.key().isNullAt(pos);
        }
        if (pos < keyArity + 2) {
            return false;
        }
        return kv.value().isNullAt(valuePos(pos));
    }

    @Override
    public boolean booleanAt(int pos) {
        return isKey(pos) ? kv.key().booleanAt(pos) : kv.value().booleanAt(valuePos(pos));
    }

    @Override
    public byte byteAt(int pos) {
        if (pos == keyArity + 1) {
            return kv.valueKind().toByteValue();
        }
        return isKey(pos) ? kv.key().byteAt(pos) : kv.value().byteAt(valuePos(pos));
    }

    @Override
    public short shortAt(int pos) {
        return isKey(pos) ? kv.key().shortAt(pos) : kv.value().shortAt(valuePos(pos));
    }

    @Override
    public int intAt(int pos) {
        return isKey(pos) ? kv.key().intAt(pos) : kv.value().intAt(valuePos(pos));
    }

    @Override
    public long longAt(int pos) {
        if (pos == keyArity) {
            return kv.sequenceNumber();
        }
        return isKey(pos) ? kv.key().longAt(pos) : kv.value().longAt(valuePos(pos));
    }

    @Override
    public float floatAt(int pos) {
        return isKey(pos) ? kv.key().floatAt(pos) : kv.value().floatAt(valuePos(pos));
    }

    @Override
    public double doubleAt(int pos) {
        return isKey(pos) ? kv.key().doubleAt(pos) : kv.value().doubleAt(valuePos(pos));
    }

    @Override
    public BinaryString stringAt(int pos) {
        return isKey(pos) ? kv.key().stringAt(pos) : kv.value().stringAt(valuePos(pos));
    }

    @Override
    public Decimal decimalAt(int pos, int precision, int scale) {
        return isKey(pos) ? kv.key().decimalAt(pos, precision, scale)
                : kv.value().decimalAt(valuePos(pos), precision, scale);
    }

    @Override
    public Timestamp timestampAt(int pos, int precision) {
        return isKey(pos) ? kv.key().timestampAt(pos, precision) : kv.value().timestampAt(valuePos(pos), precision);
    }

    @Override
    public byte[] binaryAt(int pos) {
        return isKey(pos) ? kv.key().binaryAt(pos) : kv.value().binaryAt(valuePos(pos));
    }

    @Override
    public InternalArray arrayAt(int pos) {
        return kv.value().arrayAt(valuePos(pos));
    }

    @Override
    public InternalMap mapAt(int pos) {
        return kv.value().mapAt(valuePos(pos));
    }

    @Override
    public InternalRow rowAt(int pos, int numFields) {
        return kv.value().rowAt(valuePos(pos), numFields);
    }

    @Override
    public String toString() {
        return "KeyValueFileRow of " + kv;
    }
}
