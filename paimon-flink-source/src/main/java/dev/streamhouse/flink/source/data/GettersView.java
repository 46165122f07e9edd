package dev.streamhouse.flink.source.data;

import dev.streamhouse.flink.source.compat.VariantAccess;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.DataGetters;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.Timestamp;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The positional getters Flink's {@link RowData} and {@link ArrayData} have in common, answered from
 * our {@link DataGetters}. Values are converted to Flink's internal classes without copying bytes:
 * strings wrap our UTF-8 bytes, binaries are returned as is, nested arrays, maps and rows are views.
 * So a view is valid exactly as long as the values it wraps.
 */
abstract class GettersView extends VariantAccess {

    /** The wrapped row or array. */
    abstract DataGetters getters();

    public boolean isNullAt(int pos) {
        return getters().isNullAt(pos);
    }

    public boolean getBoolean(int pos) {
        return getters().booleanAt(pos);
    }

    public byte getByte(int pos) {
        return getters().byteAt(pos);
    }

    public short getShort(int pos) {
        return getters().shortAt(pos);
    }

    /** Also DATE (days since epoch) and TIME (millis of day), as in both formats. */
    public int getInt(int pos) {
        return getters().intAt(pos);
    }

    public long getLong(int pos) {
        return getters().longAt(pos);
    }

    public float getFloat(int pos) {
        return getters().floatAt(pos);
    }

    public double getDouble(int pos) {
        return getters().doubleAt(pos);
    }

    public StringData getString(int pos) {
        BinaryString s = getters().stringAt(pos);
        return BinaryStringData.fromBytes(s.rawBytes(), s.rawOffset(), s.byteLength());
    }

    public DecimalData getDecimal(int pos, int precision, int scale) {
        Decimal d = getters().decimalAt(pos, precision, scale);
        return d.isCompact()
                ? DecimalData.fromUnscaledLong(d.toUnscaledLong(), precision, scale)
                : DecimalData.fromBigDecimal(d.toBigDecimal(), precision, scale);
    }

    /** TIMESTAMP and TIMESTAMP_LTZ alike: both formats hold epoch millis plus nanos of the milli. */
    public TimestampData getTimestamp(int pos, int precision) {
        Timestamp t = getters().timestampAt(pos, precision);
        return TimestampData.fromEpochMillis(t.millisecond(), t.nanoOfMillisecond());
    }

    public <T> RawValueData<T> getRawValue(int pos) {
        throw new UnsupportedOperationException("Cannot read a RAW value at position " + pos
                + ": the table format has no RAW type");
    }

    public byte[] getBinary(int pos) {
        return getters().binaryAt(pos);
    }

    public ArrayData getArray(int pos) {
        return new FlinkArrayData(getters().arrayAt(pos));
    }

    /** Also MULTISET, which both formats hold as a map from element to its INT count. */
    public MapData getMap(int pos) {
        return new FlinkMapData(getters().mapAt(pos));
    }

    public RowData getRow(int pos, int numFields) {
        return new FlinkRowData(getters().rowAt(pos, numFields));
    }
}
