package dev.streamhouse.storage.data;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A UTF-8 string held as bytes. Ordering is unsigned byte-wise, which equals code-point order and
 * is the order the table format uses for keys and statistics.
 */
public final class BinaryString implements Comparable<BinaryString>, Serializable {
    private static final long serialVersionUID = 1L;

    public static final BinaryString EMPTY = new BinaryString(new byte[0], 0, 0);

    private final byte[] bytes;
    private final int offset;
    private final int length;
    private transient String javaString;

    private BinaryString(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.offset = offset;
        this.length = length;
    }

    public static BinaryString fromString(String s) {
        if (s == null) {
            return null;
        }
        BinaryString b = fromBytes(s.getBytes(StandardCharsets.UTF_8));
        b.javaString = s;
        return b;
    }

    /** Wraps (does not copy) UTF-8 bytes. */
    public static BinaryString fromBytes(byte[] utf8) {
        return new BinaryString(utf8, 0, utf8.length);
    }

    /** Wraps (does not copy) a range of UTF-8 bytes. */
    public static BinaryString fromBytes(byte[] utf8, int offset, int length) {
        return new BinaryString(utf8, offset, length);
    }

    /** Number of UTF-8 bytes. */
    public int byteLength() {
        return length;
    }

    /** The UTF-8 bytes; a copy unless this string spans a whole array. */
    public byte[] toBytes() {
        if (offset == 0 && length == bytes.length) {
            return bytes;
        }
        return Arrays.copyOfRange(bytes, offset, offset + length);
    }

    /** Copies the UTF-8 bytes into {@code target} at {@code targetOffset}. */
    public void copyTo(byte[] target, int targetOffset) {
        System.arraycopy(bytes, offset, target, targetOffset, length);
    }

    public byte byteAt(int index) {
        return bytes[offset + index];
    }

    public byte[] rawBytes() {
        return bytes;
    }

    public int rawOffset() {
        return offset;
    }

    /** Number of code points. */
    public int numChars() {
        int n = 0;
        for (int i = 0; i < length; i += charBytes(bytes[offset + i])) {
            n++;
        }
        return n;
    }

    /** The first {@code numChars} code points (or the whole string if it is shorter). */
    public BinaryString prefixChars(int numChars) {
        int pos = 0;
        for (int c = 0; c < numChars && pos < length; c++) {
            pos += charBytes(bytes[offset + pos]);
        }
        return pos >= length ? this : new BinaryString(bytes, offset, Math.min(pos, length));
    }

    private static int charBytes(byte first) {
        int b = first & 0xFF;
        if (b < 0x80) {
            return 1;
        } else if (b >= 0xF0) {
            return 4;
        } else if (b >= 0xE0) {
            return 3;
        } else if (b >= 0xC0) {
            return 2;
        }
        return 1;
    }

    public BinaryString copy() {
        return new BinaryString(Arrays.copyOfRange(bytes, offset, offset + length), 0, length);
    }

    @Override
    public int compareTo(BinaryString other) {
        return Arrays.compareUnsigned(
                bytes, offset, offset + length, other.bytes, other.offset, other.offset + other.length);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof BinaryString)) {
            return false;
        }
        BinaryString that = (BinaryString) o;
        return Arrays.equals(bytes, offset, offset + length, that.bytes, that.offset, that.offset + that.length);
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (int i = offset; i < offset + length; i++) {
            h = 31 * h + bytes[i];
        }
        return h;
    }

    @Override
    public String toString() {
        if (javaString == null) {
            javaString = new String(bytes, offset, length, StandardCharsets.UTF_8);
        }
        return javaString;
    }
}
