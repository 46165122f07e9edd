package dev.streamhouse.storage.data;

/**
 * Positional read access shared by rows and arrays. Values use the internal representations:
 * DATE = int days since epoch, TIME = int millis of day, strings = {@link BinaryString}, decimals =
 * {@link Decimal}, timestamps = {@link Timestamp}, binary = {@code byte[]}. Calling an accessor on a
 * null position is undefined; check {@link #isNullAt(int)} first.
 */
public interface DataGetters {

    boolean isNullAt(int pos);

    boolean booleanAt(int pos);

    byte byteAt(int pos);

    short shortAt(int pos);

    int intAt(int pos);

    long longAt(int pos);

    float floatAt(int pos);

    double doubleAt(int pos);

    BinaryString stringAt(int pos);

    Decimal decimalAt(int pos, int precision, int scale);

    Timestamp timestampAt(int pos, int precision);

    byte[] binaryAt(int pos);

    InternalArray arrayAt(int pos);

    InternalMap mapAt(int pos);

    InternalRow rowAt(int pos, int numFields);
}
