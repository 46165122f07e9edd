package dev.streamhouse.storage.mergetree.aggregate;

import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * {@code rbm64}: the union of 64-bit roaring bitmaps held in a VARBINARY column. Apache Paimon uses
 * {@link Roaring64Bitmap} (the ART-based one, not {@code Roaring64NavigableMap}) and its
 * {@code serialize(DataOutput)} format after {@code runOptimize()}; so does this. Null never
 * contributes; retraction is not supported.
 */
final class RoaringBitmap64Aggregator extends NonRetractingAggregator {
    private RoaringBitmap64Aggregator(ColumnFunction function) {
        super(function);
    }

    static FieldAggregator create(ColumnFunction function) {
        BinaryFunctions.requireVarBinary(function);
        return new RoaringBitmap64Aggregator(function);
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        Roaring64Bitmap union = read((byte[]) accumulator);
        union.or(read((byte[]) input));
        union.runOptimize();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DataOutputStream data = new DataOutputStream(out)) {
            union.serialize(data);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serialize a bitmap in memory", e);
        }
        return out.toByteArray();
    }

    private Roaring64Bitmap read(byte[] bytes) {
        Roaring64Bitmap bitmap = new Roaring64Bitmap();
        try {
            bitmap.deserialize(new DataInputStream(new ByteArrayInputStream(bytes)));
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot merge the bitmaps of column '" + function().column()
                    + "': a value is not a serialized 64-bit RoaringBitmap", e);
        }
        return bitmap;
    }
}
