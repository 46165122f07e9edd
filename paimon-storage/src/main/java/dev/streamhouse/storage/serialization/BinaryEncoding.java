package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.data.BinaryRow;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The primitive encodings the serializers of this package share (big-endian, {@link DataOutput}):
 *
 * <pre>
 * row       := bytes(BinaryRow serialized form: int32 arity + row bytes)
 * string    := bytes(UTF-8)             bytes := int(length) length × byte
 * strings   := int(n) n × string        ?x    := boolean(present) [x]
 * </pre>
 * Changing any of these changes every layout built on them: add a serializer version instead.
 */
final class BinaryEncoding {
    private BinaryEncoding() {}

    static void writeRow(BinaryRow row, DataOutput out) throws IOException {
        writeBytes(row.toSerializedBytes(), out);
    }

    static BinaryRow readRow(DataInput in) throws IOException {
        byte[] serialized = readBytes(in);
        try {
            return BinaryRow.fromSerializedBytes(serialized);
        } catch (IllegalArgumentException e) {
            throw new IOException("Corrupt serialized row: " + e.getMessage(), e);
        }
    }

    static void writeNullableLong(Long v, DataOutput out) throws IOException {
        out.writeBoolean(v != null);
        if (v != null) {
            out.writeLong(v);
        }
    }

    static Long readNullableLong(DataInput in) throws IOException {
        return in.readBoolean() ? in.readLong() : null;
    }

    static void writeStrings(List<String> values, DataOutput out) throws IOException {
        out.writeInt(values.size());
        for (String s : values) {
            writeString(s, out);
        }
    }

    static List<String> readStrings(DataInput in) throws IOException {
        int n = readCount(in);
        List<String> out = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            out.add(readString(in));
        }
        return out;
    }

    static void writeNullableStrings(List<String> values, DataOutput out) throws IOException {
        out.writeBoolean(values != null);
        if (values != null) {
            writeStrings(values, out);
        }
    }

    static List<String> readNullableStrings(DataInput in) throws IOException {
        return in.readBoolean() ? readStrings(in) : null;
    }

    static void writeNullableString(String s, DataOutput out) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            writeString(s, out);
        }
    }

    static String readNullableString(DataInput in) throws IOException {
        return in.readBoolean() ? readString(in) : null;
    }

    static void writeString(String s, DataOutput out) throws IOException {
        writeBytes(s.getBytes(StandardCharsets.UTF_8), out);
    }

    static String readString(DataInput in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    static void writeNullableBytes(byte[] b, DataOutput out) throws IOException {
        out.writeBoolean(b != null);
        if (b != null) {
            writeBytes(b, out);
        }
    }

    static byte[] readNullableBytes(DataInput in) throws IOException {
        return in.readBoolean() ? readBytes(in) : null;
    }

    static void writeBytes(byte[] b, DataOutput out) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    static byte[] readBytes(DataInput in) throws IOException {
        byte[] b = new byte[readCount(in)];
        in.readFully(b);
        return b;
    }

    /** A length or element count: never negative in bytes this package wrote. */
    static int readCount(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("Corrupt serialized bytes: negative length " + n);
        }
        return n;
    }
}
