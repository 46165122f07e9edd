package dev.streamhouse.storage.manifest;

import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.generic.GenericRecord;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Schema building, codec selection and by-name field access for the Avro metadata files (docs/format.md §5.1).
 *
 * <p>Schemas follow Paimon's derivation: records in namespace {@value #NAMESPACE}, nullable types as
 * the union {@code ["null", T]} (null first) with {@code "default": null}.
 *
 * <p>Readers decode with the file's own writer schema and look fields up by name through the
 * {@code require*}/{@code optional*} accessors: a field missing from the file reads as null, so files
 * written by older or newer layouts work as long as the required fields are there. Accessors throw
 * {@link IllegalArgumentException} for a missing required field or a value of the wrong type; file
 * readers turn that into a {@link CorruptManifestException} naming the file.
 */
public final class AvroSupport {
    /** Namespace of every record Paimon writes. */
    public static final String NAMESPACE = "org.apache.paimon.avro.generated";

    private AvroSupport() {}

    /** {@code ["null", type]}. */
    public static Schema nullable(Schema type) {
        return Schema.createUnion(Schema.create(Schema.Type.NULL), type);
    }

    /** A required field. */
    public static Schema.Field field(String name, Schema type) {
        return new Schema.Field(name, type, null, (Object) null);
    }

    /** A nullable field: {@code ["null", type]} with default null. */
    public static Schema.Field nullableField(String name, Schema type) {
        return new Schema.Field(name, nullable(type), null, Schema.Field.NULL_DEFAULT_VALUE);
    }

    public static Schema record(String name, List<Schema.Field> fields) {
        return Schema.createRecord(name, null, NAMESPACE, false, fields);
    }

    public static Schema primitive(Schema.Type type) {
        return Schema.create(type);
    }

    /**
     * The Avro codec for a {@code manifest.compression} value: {@code zstd} (Avro codec
     * {@code zstandard} at {@code zstdLevel}), {@code snappy}, {@code deflate}, or {@code none}/
     * {@code null}/{@code uncompressed} (no compression).
     *
     * @throws IllegalArgumentException for any other value
     */
    public static CodecFactory codec(String compression, int zstdLevel) {
        String c = compression == null ? "none" : compression.trim().toLowerCase(Locale.ROOT);
        switch (c) {
            case "zstd":
            case "zstandard":
                return CodecFactory.zstandardCodec(zstdLevel);
            case "snappy":
                return CodecFactory.snappyCodec();
            case "deflate":
                return CodecFactory.deflateCodec(CodecFactory.DEFAULT_DEFLATE_LEVEL);
            case "none":
            case "null":
            case "uncompressed":
                return CodecFactory.nullCodec();
            default:
                throw new IllegalArgumentException("Cannot write manifests with 'manifest.compression' = '" + compression
                        + "': supported are zstd, snappy, deflate and none");
        }
    }

    /**
     * The fields of {@code writer} (a file's schema) that {@code layout} (the newest layout known here)
     * does not have, as dotted paths, looking into nested records, unions, arrays and maps.
     */
    public static List<String> unknownFields(Schema writer, Schema layout, String prefix) {
        List<String> out = new java.util.ArrayList<>();
        Schema w = nonNull(writer);
        Schema l = nonNull(layout);
        switch (w.getType()) {
            case RECORD:
                if (l.getType() != Schema.Type.RECORD) {
                    return out;
                }
                for (Schema.Field f : w.getFields()) {
                    Schema.Field known = l.getField(f.name());
                    if (known == null) {
                        out.add(prefix + f.name());
                    } else {
                        out.addAll(unknownFields(f.schema(), known.schema(), prefix + f.name() + "."));
                    }
                }
                return out;
            case ARRAY:
                return l.getType() == Schema.Type.ARRAY ? unknownFields(w.getElementType(), l.getElementType(), prefix) : out;
            case MAP:
                return l.getType() == Schema.Type.MAP ? unknownFields(w.getValueType(), l.getValueType(), prefix) : out;
            default:
                return out;
        }
    }

    /** The names among {@code names} that {@code r}'s schema has, sorted. */
    public static List<String> presentFields(GenericRecord r, java.util.Map<String, String> names) {
        List<String> out = new ArrayList<>(0);
        for (String name : names.keySet()) {
            if (r.getSchema().getField(name) != null) {
                out.add(name);
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * Whether the top-level field {@code name} of record {@code writer} is a union with null and comes
     * after every field of {@code writer} that {@code layout} also has.
     */
    public static boolean isTrailingNullable(Schema writer, String name, Schema layout) {
        Schema.Field field = writer.getField(name);
        if (field == null || field.schema().getType() != Schema.Type.UNION
                || field.schema().getTypes().stream().noneMatch(t -> t.getType() == Schema.Type.NULL)) {
            return false;
        }
        for (Schema.Field other : writer.getFields()) {
            if (other.pos() > field.pos() && layout.getField(other.name()) != null) {
                return false;
            }
        }
        return true;
    }

    /** The non-null branch of a {@code [null, T]} union, or the schema itself. */
    private static Schema nonNull(Schema schema) {
        if (schema.getType() == Schema.Type.UNION) {
            for (Schema branch : schema.getTypes()) {
                if (branch.getType() != Schema.Type.NULL) {
                    return branch;
                }
            }
        }
        return schema;
    }

    /** The value of field {@code name}, or null if the record's schema has no such field. */
    public static Object get(GenericRecord record, String name) {
        Schema.Field f = record.getSchema().getField(name);
        return f == null ? null : record.get(f.pos());
    }

    private static Object require(GenericRecord record, String name) {
        Object v = get(record, name);
        if (v == null) {
            throw new IllegalArgumentException("required field " + name + " is missing or null");
        }
        return v;
    }

    public static int requireInt(GenericRecord record, String name) {
        return toInt(name, require(record, name));
    }

    public static long requireLong(GenericRecord record, String name) {
        return toLong(name, require(record, name));
    }

    public static String requireString(GenericRecord record, String name) {
        return require(record, name).toString();
    }

    public static byte[] requireBytes(GenericRecord record, String name) {
        return toBytes(name, require(record, name));
    }

    public static GenericRecord requireRecord(GenericRecord record, String name) {
        Object v = require(record, name);
        if (!(v instanceof GenericRecord)) {
            throw new IllegalArgumentException("field " + name + " must be a record but is " + v.getClass().getSimpleName());
        }
        return (GenericRecord) v;
    }

    public static Integer optionalInt(GenericRecord record, String name) {
        Object v = get(record, name);
        return v == null ? null : toInt(name, v);
    }

    public static Long optionalLong(GenericRecord record, String name) {
        Object v = get(record, name);
        return v == null ? null : toLong(name, v);
    }

    public static String optionalString(GenericRecord record, String name) {
        Object v = get(record, name);
        return v == null ? null : v.toString();
    }

    public static byte[] optionalBytes(GenericRecord record, String name) {
        Object v = get(record, name);
        return v == null ? null : toBytes(name, v);
    }

    /** A list of strings; null if the field is missing or null. Null elements are an error. */
    public static List<String> optionalStringList(GenericRecord record, String name) {
        Object v = get(record, name);
        if (v == null) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (Object element : toList(name, v)) {
            if (element == null) {
                throw new IllegalArgumentException("field " + name + " holds a null string");
            }
            out.add(element.toString());
        }
        return out;
    }

    /** The elements of an array field; null if the field is missing or null. */
    public static List<?> optionalList(GenericRecord record, String name) {
        Object v = get(record, name);
        return v == null ? null : toList(name, v);
    }

    private static List<?> toList(String name, Object v) {
        if (!(v instanceof List)) {
            throw new IllegalArgumentException("field " + name + " must be an array but is " + v.getClass().getSimpleName());
        }
        return (List<?>) v;
    }

    private static int toInt(String name, Object v) {
        if (!(v instanceof Integer)) {
            throw new IllegalArgumentException("field " + name + " must be an int but is " + v.getClass().getSimpleName());
        }
        return (Integer) v;
    }

    private static long toLong(String name, Object v) {
        if (v instanceof Long || v instanceof Integer) {
            return ((Number) v).longValue();
        }
        throw new IllegalArgumentException("field " + name + " must be a long but is " + v.getClass().getSimpleName());
    }

    private static byte[] toBytes(String name, Object v) {
        if (!(v instanceof ByteBuffer)) {
            throw new IllegalArgumentException("field " + name + " must be bytes but is " + v.getClass().getSimpleName());
        }
        ByteBuffer b = ((ByteBuffer) v).duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
