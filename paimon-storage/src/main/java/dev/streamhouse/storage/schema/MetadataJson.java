package dev.streamhouse.storage.schema;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.StringWriter;

/**
 * The JSON dialect of metadata files (docs/format.md §2.1): Jackson's default pretty printer with a fixed
 * {@code \n} line feed (2-space indent, {@code "key" : value}, {@code { }} for an empty object, inline
 * scalar arrays) and no trailing newline. Shared by the schema, snapshot and later tag/consumer
 * serializers so they produce byte-identical formatting.
 */
public final class MetadataJson {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper(FACTORY);

    private MetadataJson() {}

    /** Writes one JSON document. */
    @FunctionalInterface
    public interface Body {
        void write(JsonGenerator generator) throws IOException;
    }

    /** Renders a document written by {@code body} with the metadata pretty printer. */
    public static String render(Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.setPrettyPrinter(new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n")));
            body.write(g);
        } catch (IOException e) {
            // a StringWriter does not fail; a failure here is a bug in the body
            throw new IllegalStateException("Cannot render metadata JSON: " + e.getMessage(), e);
        }
        return out.toString();
    }

    /**
     * Parses a JSON document into a tree.
     *
     * @throws IllegalArgumentException if the text is not one complete JSON object
     */
    public static JsonNode parseObject(String json) {
        JsonNode node;
        try {
            node = MAPPER.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not valid JSON (" + e.getOriginalMessage() + ")", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("not valid JSON (" + e.getMessage() + ")", e);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("expected a JSON object but found "
                    + (node == null || node.isMissingNode() ? "nothing" : node.getNodeType()));
        }
        return node;
    }

    private static String describe(JsonNode node) {
        return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The long member {@code name}; fails if missing or not an integer. */
    public static long requireLong(JsonNode object, String name) {
        JsonNode v = object.get(name);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("required field '" + name + "' is missing");
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new IllegalArgumentException("field '" + name + "' must be an integer but is " + describe(v));
        }
        return v.longValue();
    }

    /** The int member {@code name}; fails if missing or not an int. */
    public static int requireInt(JsonNode object, String name) {
        long v = requireLong(object, name);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("field '" + name + "' must be an int but is " + v);
        }
        return (int) v;
    }

    /** The long member {@code name}, or null if missing or null. */
    public static Long optionalLong(JsonNode object, String name) {
        JsonNode v = object.get(name);
        return v == null || v.isNull() ? null : requireLong(object, name);
    }

    /** The string member {@code name}; fails if missing or not a string. */
    public static String requireString(JsonNode object, String name) {
        String v = optionalString(object, name);
        if (v == null) {
            throw new IllegalArgumentException("required field '" + name + "' is missing");
        }
        return v;
    }

    /** The string member {@code name}, or null if missing or null. */
    public static String optionalString(JsonNode object, String name) {
        JsonNode v = object.get(name);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("field '" + name + "' must be a string but is " + describe(v));
        }
        return v.textValue();
    }
}
