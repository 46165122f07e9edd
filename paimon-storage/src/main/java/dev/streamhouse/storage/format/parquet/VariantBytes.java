package dev.streamhouse.storage.format.parquet;

import java.util.Arrays;

/**
 * The internal value of a VARIANT column as this package reads and writes it: one {@code byte[]}
 * holding a 4-byte big-endian length of the variant's value bytes, the value bytes, then the metadata
 * bytes. In the Parquet file the two parts are the group fields {@code value} and {@code metadata}.
 */
public final class VariantBytes {
    private static final int HEADER = 4;

    private VariantBytes() {}

    /** Packs variant value and metadata bytes into the internal form. */
    public static byte[] pack(byte[] value, byte[] metadata) {
        return pack(value, 0, value.length, metadata, 0, metadata.length);
    }

    static byte[] pack(byte[] value, int valueOffset, int valueLength, byte[] metadata, int metadataOffset,
            int metadataLength) {
        byte[] out = new byte[HEADER + valueLength + metadataLength];
        out[0] = (byte) (valueLength >>> 24);
        out[1] = (byte) (valueLength >>> 16);
        out[2] = (byte) (valueLength >>> 8);
        out[3] = (byte) valueLength;
        System.arraycopy(value, valueOffset, out, HEADER, valueLength);
        System.arraycopy(metadata, metadataOffset, out, HEADER + valueLength, metadataLength);
        return out;
    }

    /** Length of the value part; fails for bytes that are not a packed variant. */
    public static int valueLength(byte[] packed) {
        if (packed.length < HEADER) {
            throw new IllegalArgumentException(
                    "Cannot unpack VARIANT value: " + packed.length + " bytes are shorter than the 4-byte header");
        }
        int length = ((packed[0] & 0xFF) << 24) | ((packed[1] & 0xFF) << 16) | ((packed[2] & 0xFF) << 8)
                | (packed[3] & 0xFF);
        if (length < 0 || length > packed.length - HEADER) {
            throw new IllegalArgumentException("Cannot unpack VARIANT value: value length " + length
                    + " exceeds the " + (packed.length - HEADER) + " bytes present");
        }
        return length;
    }

    /** Offset of the value part in the packed form. */
    static int valueOffset() {
        return HEADER;
    }

    public static byte[] value(byte[] packed) {
        return Arrays.copyOfRange(packed, HEADER, HEADER + valueLength(packed));
    }

    public static byte[] metadata(byte[] packed) {
        return Arrays.copyOfRange(packed, HEADER + valueLength(packed), packed.length);
    }
}
