package dev.streamhouse.storage.manifest;

import org.apache.avro.io.Encoder;

import java.io.IOException;
import java.util.List;

/**
 * Direct encoding of the {@code ["null", T]} unions and string arrays of Paimon's Avro schemas, so
 * records are written straight from the value classes without building GenericRecords. Branch 0 is
 * null, branch 1 the value.
 */
public final class AvroEncoding {
    private AvroEncoding() {}

    public static void writeNull(Encoder out) throws IOException {
        out.writeIndex(0);
        out.writeNull();
    }

    public static void writeNullableInt(Encoder out, Integer value) throws IOException {
        if (value == null) {
            writeNull(out);
        } else {
            out.writeIndex(1);
            out.writeInt(value);
        }
    }

    public static void writeNullableLong(Encoder out, Long value) throws IOException {
        if (value == null) {
            writeNull(out);
        } else {
            out.writeIndex(1);
            out.writeLong(value);
        }
    }

    public static void writeNullableString(Encoder out, String value) throws IOException {
        if (value == null) {
            writeNull(out);
        } else {
            out.writeIndex(1);
            out.writeString(value);
        }
    }

    public static void writeNullableBytes(Encoder out, byte[] value) throws IOException {
        if (value == null) {
            writeNull(out);
        } else {
            out.writeIndex(1);
            out.writeBytes(value);
        }
    }

    /** A non-null {@code {"type":"array","items":"string"}}. */
    public static void writeStringArray(Encoder out, List<String> values) throws IOException {
        out.writeArrayStart();
        out.setItemCount(values.size());
        for (String v : values) {
            out.startItem();
            out.writeString(v);
        }
        out.writeArrayEnd();
    }

    /** {@code ["null", {"type":"array","items":"string"}]}. */
    public static void writeNullableStringArray(Encoder out, List<String> values) throws IOException {
        if (values == null) {
            writeNull(out);
        } else {
            out.writeIndex(1);
            writeStringArray(out, values);
        }
    }
}
