package dev.streamhouse.storage.deletionvectors;

import org.roaringbitmap.RoaringBitmap;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * A deletion vector as it is stored in a DV index file (docs/format.md §9.2): the frame
 * {@code int32 BE size | blob | int32 BE CRC32(blob)}, the blob in one of the {@link BitmapLayout}s.
 * These are exactly the bytes Paimon 1.3's {@code DeletionVector.serializeTo} writes. Bitmaps are
 * run-optimized before writing, as Paimon does.
 */
public final class DeletionVectorSerializer {
    /** The size field and the CRC around a blob. */
    static final int FRAME_OVERHEAD = 8;

    private DeletionVectorSerializer() {}

    /**
     * The stored frame of {@code vector} in {@code layout}.
     *
     * @throws IllegalArgumentException for {@link BitmapLayout#BITMAP32} and a position of 2^31 or more
     */
    public static byte[] serialize(BitmapDeletionVector vector, BitmapLayout layout) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(0); // size, set below
            RoaringBitmap[] bitmaps = vector.bitmaps();
            if (layout == BitmapLayout.BITMAP32) {
                if (!vector.fitsInt32()) {
                    throw new IllegalArgumentException("Cannot store a deletion vector with a row position of 2^31 or "
                            + "more as a 32-bit bitmap; set 'deletion-vectors.bitmap64' = 'true'");
                }
                out.writeInt(BitmapLayout.MAGIC32);
                optimized(bitmaps.length == 0 ? new RoaringBitmap() : bitmaps[0]).serialize(out);
            } else {
                out.writeInt(Integer.reverseBytes(BitmapLayout.MAGIC64));
                out.writeLong(Long.reverseBytes(bitmaps.length));
                for (int h = 0; h < bitmaps.length; h++) {
                    out.writeInt(Integer.reverseBytes(h));
                    optimized(bitmaps[h]).serialize(out);
                }
            }
            out.writeInt(0); // CRC, set below
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serialize a deletion vector in memory", e);
        }
        byte[] frame = bytes.toByteArray();
        int blobSize = frame.length - FRAME_OVERHEAD;
        ByteBuffer buffer = ByteBuffer.wrap(frame);
        buffer.putInt(0, blobSize);
        buffer.putInt(4 + blobSize, crc(frame, 4, blobSize));
        return frame;
    }

    /**
     * The vector of a frame that fills {@code frame} exactly.
     *
     * @throws IllegalArgumentException if it is not one, its CRC does not match, or bytes remain
     */
    public static BitmapDeletionVector deserialize(byte[] frame) {
        Frame f = read(frame, 0, frame.length);
        if (f.frameLength() != frame.length) {
            throw new IllegalArgumentException("the frame of " + f.frameLength() + " bytes is followed by "
                    + (frame.length - f.frameLength()) + " more bytes");
        }
        return f.vector();
    }

    /** A frame read from a larger buffer. */
    record Frame(BitmapDeletionVector vector, BitmapLayout layout, int blobSize) {
        int frameLength() {
            return blobSize + FRAME_OVERHEAD;
        }
    }

    /**
     * Reads the frame starting at {@code offset}, which must end at or before {@code limit}.
     *
     * @throws IllegalArgumentException saying what is wrong: truncation, an unknown magic number, a
     *     CRC mismatch, a bitmap that is malformed or does not fill its blob
     */
    static Frame read(byte[] bytes, int offset, int limit) {
        if (offset < 0 || offset + 4 > limit) {
            throw new IllegalArgumentException("there is no size field at offset " + offset + " (the file has "
                    + limit + " bytes)");
        }
        ByteBuffer be = ByteBuffer.wrap(bytes, 0, limit);
        int blobSize = be.getInt(offset);
        if (blobSize < 4 || (long) offset + FRAME_OVERHEAD + blobSize > limit) {
            throw new IllegalArgumentException("its size field says " + blobSize + " bytes, but the file has "
                    + (limit - offset - FRAME_OVERHEAD) + " bytes for it (truncated or not a deletion vector)");
        }
        int blob = offset + 4;
        int storedCrc = be.getInt(blob + blobSize);
        int actualCrc = crc(bytes, blob, blobSize);
        if (storedCrc != actualCrc) {
            throw new IllegalArgumentException("its CRC32 is " + Integer.toHexString(actualCrc) + ", but "
                    + Integer.toHexString(storedCrc) + " is stored");
        }
        ByteBuffer le = ByteBuffer.wrap(bytes, blob, blobSize).slice().order(ByteOrder.LITTLE_ENDIAN);
        int magic = be.getInt(blob);
        try {
            if (magic == BitmapLayout.MAGIC32) {
                le.position(4);
                RoaringBitmap bitmap = readBitmap(le);
                requireConsumed(le);
                if (!bitmap.isEmpty() && bitmap.last() < 0) {
                    throw new IllegalArgumentException("its 32-bit bitmap holds position " + Integer.toUnsignedLong(
                            bitmap.last()) + ", above the largest 32-bit row position 2^31-1");
                }
                return new Frame(BitmapDeletionVector.ofBitmaps(bitmap.isEmpty() ? new RoaringBitmap[0]
                        : new RoaringBitmap[] {bitmap}), BitmapLayout.BITMAP32, blobSize);
            }
            if (Integer.reverseBytes(magic) == BitmapLayout.MAGIC64) {
                le.position(4);
                return new Frame(BitmapDeletionVector.ofBitmaps(read64(le)), BitmapLayout.BITMAP64, blobSize);
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof IllegalArgumentException) {
                throw (IllegalArgumentException) e;
            }
            throw new IllegalArgumentException("its bitmap is malformed: " + e, e);
        }
        throw new IllegalArgumentException("magic number " + magic + " is neither " + BitmapLayout.MAGIC32
                + " (32-bit bitmap, big-endian) nor " + BitmapLayout.MAGIC64 + " (64-bit bitmap, little-endian)");
    }

    private static RoaringBitmap[] read64(ByteBuffer le) throws IOException {
        long count = le.getLong();
        if (count < 0 || count > le.remaining() / 12) {
            throw new IllegalArgumentException("its 64-bit bitmap claims " + count + " bitmaps in "
                    + le.remaining() + " bytes");
        }
        List<RoaringBitmap> byHigh = new ArrayList<>();
        int previous = -1;
        for (long i = 0; i < count; i++) {
            int high = le.getInt();
            if (high <= previous || high > BitmapDeletionVector.MAX_HIGH) {
                throw new IllegalArgumentException("its 64-bit bitmap has high word " + high + " after "
                        + previous + "; they must ascend from 0");
            }
            while (byHigh.size() < high) {
                byHigh.add(new RoaringBitmap());
            }
            byHigh.add(readBitmap(le));
            previous = high;
        }
        requireConsumed(le);
        return byHigh.toArray(new RoaringBitmap[0]);
    }

    private static RoaringBitmap readBitmap(ByteBuffer le) throws IOException {
        RoaringBitmap bitmap = new RoaringBitmap();
        bitmap.deserialize(le); // reads from le's position without moving it
        int size = bitmap.serializedSizeInBytes();
        if (size > le.remaining()) {
            throw new IllegalArgumentException("its bitmap needs " + size + " bytes, but " + le.remaining() + " remain");
        }
        le.position(le.position() + size);
        return bitmap;
    }

    private static void requireConsumed(ByteBuffer le) {
        if (le.hasRemaining()) {
            throw new IllegalArgumentException("its bitmap ends " + le.remaining() + " bytes before the blob does");
        }
    }

    private static RoaringBitmap optimized(RoaringBitmap bitmap) {
        RoaringBitmap copy = bitmap.clone();
        copy.runOptimize();
        return copy;
    }

    private static int crc(byte[] bytes, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
