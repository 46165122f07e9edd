package dev.streamhouse.storage.mergetree.aggregate;

import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * {@code rbm32}: the union of 32-bit roaring bitmaps held in a VARBINARY column in RoaringBitmap's
 * portable serialization. The union is run-optimized before it is serialized, as Apache Paimon does,
 * so both write the same bytes. Null never contributes; retraction is not supported.
 */
final class RoaringBitmap32Aggregator extends NonRetractingAggregator {
    private RoaringBitmap32Aggregator(ColumnFunction function) {
        super(function);
    }

    static FieldAggregator create(ColumnFunction function) {
        BinaryFunctions.requireVarBinary(function);
        return new RoaringBitmap32Aggregator(function);
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        RoaringBitmap union = read((byte[]) accumulator);
        union.or(read((byte[]) input));
        union.runOptimize();
        ByteBuffer out = ByteBuffer.allocate(union.serializedSizeInBytes());
        union.serialize(out);
        return out.array();
    }

    private RoaringBitmap read(byte[] bytes) {
        RoaringBitmap bitmap = new RoaringBitmap();
        try {
            bitmap.deserialize(ByteBuffer.wrap(bytes));
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot merge the bitmaps of column '" + function().column()
                    + "': a value is not a serialized 32-bit RoaringBitmap", e);
        }
        return bitmap;
    }
}
