package dev.streamhouse.flink.source.data;

import dev.streamhouse.storage.data.DataGetters;
import dev.streamhouse.storage.data.InternalArray;
import org.apache.flink.table.data.ArrayData;

/**
 * Presents one of our {@link InternalArray}s as Flink {@link ArrayData} without copying it; valid as
 * long as the wrapped array is. The {@code toXxxArray()} methods copy into new primitive arrays and,
 * like Flink's own arrays, refuse arrays with NULL elements.
 */
public final class FlinkArrayData extends GettersView implements ArrayData {
    private final InternalArray array;

    public FlinkArrayData(InternalArray array) {
        this.array = array;
    }

    @Override
    DataGetters getters() {
        return array;
    }

    @Override
    public int size() {
        return array.size();
    }

    private void checkNoNulls() {
        for (int i = 0; i < array.size(); i++) {
            if (array.isNullAt(i)) {
                throw new IllegalStateException("Cannot convert an array with a NULL element (at position " + i
                        + ") to a primitive array");
            }
        }
    }

    @Override
    public boolean[] toBooleanArray() {
        checkNoNulls();
        boolean[] out = new boolean[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.booleanAt(i);
        }
        return out;
    }

    @Override
    public byte[] toByteArray() {
        checkNoNulls();
        byte[] out = new byte[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.byteAt(i);
        }
        return out;
    }

    @Override
    public short[] toShortArray() {
        checkNoNulls();
        short[] out = new short[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.shortAt(i);
        }
        return out;
    }

    @Override
    public int[] toIntArray() {
        checkNoNulls();
        int[] out = new int[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.intAt(i);
        }
        return out;
    }

    @Override
    public long[] toLongArray() {
        checkNoNulls();
        long[] out = new long[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.longAt(i);
        }
        return out;
    }

    @Override
    public float[] toFloatArray() {
        checkNoNulls();
        float[] out = new float[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.floatAt(i);
        }
        return out;
    }

    @Override
    public double[] toDoubleArray() {
        checkNoNulls();
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.doubleAt(i);
        }
        return out;
    }
}
