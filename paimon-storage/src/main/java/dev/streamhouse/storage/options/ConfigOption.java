package dev.streamhouse.storage.options;

import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A typed option: key, default (may be null for "unset"), description, parser, and how far this store
 * honours it ({@link OptionStatus}). Declared once, in a small holder class per area, with the key,
 * fallback keys and default Apache Paimon uses; {@link OptionRegistry} finds every declaration and
 * {@link OptionValidator} checks user input against it before anything is written.
 *
 * <p>Declarations read as sentences:
 * <pre>
 * ConfigOption.key("write-buffer-size").memoryType().defaultValue(MemorySize.ofMebiBytes(256))
 *         .withDescription("...").checkedBy(OptionChecks.positiveMemory());
 * ConfigOption.key("scan.tag-name").stringType().noDefaultValue()
 *         .withDescription("...").notSupportedYet("tags are not implemented");
 * </pre>
 */
public final class ConfigOption<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final T defaultValue;
    private final String description;
    private final SerializableParser<T> parser;
    private final String typeName;
    private final List<String> fallbackKeys;
    private final OptionStatus status;
    private final String statusNote;
    private final ValueCheck<T> supportedValues;
    private final ValueCheck<T> check;
    private final boolean immutable;
    private final boolean readsDiffer;

    private ConfigOption(String key, T defaultValue, String description, SerializableParser<T> parser,
            String typeName, List<String> fallbackKeys, OptionStatus status, String statusNote,
            ValueCheck<T> supportedValues, ValueCheck<T> check, boolean immutable, boolean readsDiffer) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.description = description;
        this.parser = parser;
        this.typeName = typeName;
        this.fallbackKeys = List.copyOf(fallbackKeys);
        this.status = status;
        this.statusNote = statusNote;
        this.supportedValues = supportedValues;
        this.check = check;
        this.immutable = immutable;
        this.readsDiffer = readsDiffer;
    }

    public static Builder key(String key) {
        return new Builder(key);
    }

    public String key() {
        return key;
    }

    /** The default, or null when the option has none. */
    public T defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    public String typeName() {
        return typeName;
    }

    /** Older keys of the same option, read when {@link #key()} is not set (Paimon's deprecated spellings). */
    public List<String> fallbackKeys() {
        return fallbackKeys;
    }

    public OptionStatus status() {
        return status;
    }

    /**
     * What is missing (for {@link OptionStatus#NOT_SUPPORTED} and {@link OptionStatus#NO_EFFECT}) or
     * which values work (for a {@link OptionStatus#SUPPORTED} option restricted by
     * {@link #supportedOnly}); empty otherwise.
     */
    public String statusNote() {
        return statusNote;
    }

    /** Whether the option is fixed when the table is created (Paimon's immutable options). */
    public boolean isImmutable() {
        return immutable;
    }

    /**
     * Whether a table that stores an unsupported value of this option cannot be read exactly as Paimon
     * reads it (for example another merge engine); options that only shape how files are written do not.
     */
    public boolean affectsReads() {
        return readsDiffer;
    }

    /** Parses a user's text, with an error naming the option and the expected type. */
    public T parse(String text) {
        try {
            return parser.apply(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "Invalid value '" + text + "' for option '" + key + "' (expected " + typeName + "): "
                            + e.getMessage(), e);
        }
    }

    /**
     * Parses and checks a user's text: the type, the declared range, and the status (a value that is
     * not supported yet is refused with a message saying so).
     *
     * @throws IllegalArgumentException naming the option, the value and what is wrong
     */
    public T parseAndCheck(String text) {
        T value = parse(text);
        if (check != null) {
            String problem = check.problem(value);
            if (problem != null) {
                throw new IllegalArgumentException(
                        "Invalid value '" + text + "' for option '" + key + "': " + problem);
            }
        }
        return value;
    }

    /**
     * Why {@code value} cannot be honoured yet, or null if it can: a {@link OptionStatus#NOT_SUPPORTED}
     * option accepts only its default, a restricted supported option only its supported values.
     */
    public String unsupportedReason(T value) {
        if (status == OptionStatus.NOT_SUPPORTED) {
            return defaultValue != null && defaultValue.equals(value) ? null : statusNote;
        }
        if (supportedValues != null) {
            return supportedValues.problem(value);
        }
        return null;
    }

    /** The text of a value as users write it (and as {@link #parse} reads it back). */
    public String format(T value) {
        return formatValue(value);
    }

    static String formatValue(Object value) {
        if (value instanceof Duration) {
            return DurationParser.format((Duration) value);
        }
        if (value instanceof Map) {
            return ((Map<?, ?>) value).entrySet().stream().map(e -> e.getKey() + ":" + e.getValue())
                    .collect(Collectors.joining(","));
        }
        return String.valueOf(value);
    }

    // ------------------------------------------------------------------ declaration modifiers (copies)

    public ConfigOption<T> withDescription(String description) {
        return new ConfigOption<>(key, defaultValue, description, parser, typeName, fallbackKeys, status, statusNote,
                supportedValues, check, immutable, readsDiffer);
    }

    /** Also read from these older keys when {@link #key()} is not set. */
    public ConfigOption<T> withFallbackKeys(String... keys) {
        return new ConfigOption<>(key, defaultValue, description, parser, typeName, Arrays.asList(keys), status,
                statusNote, supportedValues, check, immutable, readsDiffer);
    }

    /** Values outside what {@code check} allows are invalid (e.g. ranges); checked at every entry point. */
    public ConfigOption<T> checkedBy(ValueCheck<T> check) {
        return new ConfigOption<>(key, defaultValue, description, parser, typeName, fallbackKeys, status, statusNote,
                supportedValues, check, immutable, readsDiffer);
    }

    /** Fixed when the table is created: {@code ALTER TABLE SET/RESET} and hints may not change it. */
    public ConfigOption<T> immutable() {
        return new ConfigOption<>(key, defaultValue, description, parser, typeName, fallbackKeys, status, statusNote,
                supportedValues, check, true, readsDiffer);
    }

    /**
     * Implemented for some values only: {@code supported} names the problem with any other value, which
     * is then refused as not supported yet (an invalid value is still refused as invalid).
     *
     * @param supportedValues which values work, for the documentation, e.g. "'deduplicate' only"
     */
    public ConfigOption<T> supportedOnly(String supportedValues, ValueCheck<T> supported) {
        return new ConfigOption<>(key, defaultValue, description, parser, typeName, fallbackKeys,
                OptionStatus.SUPPORTED, supportedValues, supported, check, immutable, readsDiffer);
    }

    /**
     * Not implemented: any value but the default is refused with {@code whatIsMissing} in the message,
     * when a table is created or altered and in hints.
     */
    public ConfigOption<T> notSupportedYet(String whatIsMissing) {
        return new ConfigOption<>(key, defaultValue, description, parser, typeName, fallbackKeys,
                OptionStatus.NOT_SUPPORTED, whatIsMissing, null, check, immutable, readsDiffer);
    }

    /**
     * Accepted, but without effect yet, with a warning naming it; only for options that shape
     * maintenance or performance, never the rows a query returns.
     */
    public ConfigOption<T> noEffectYet(String whatIsMissing) {
        return new ConfigOption<>(key, defaultValue, description, parser, typeName, fallbackKeys,
                OptionStatus.NO_EFFECT, whatIsMissing, null, check, immutable, readsDiffer);
    }

    /**
     * A table that stores an unsupported value of this option is refused for reading too, not only for
     * writing: its rows would differ from Paimon's.
     */
    public ConfigOption<T> affectingReads() {
        return new ConfigOption<>(key, defaultValue, description, parser, typeName, fallbackKeys, status, statusNote,
                supportedValues, check, immutable, true);
    }

    @Override
    public String toString() {
        return key;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConfigOption && ((ConfigOption<?>) o).key.equals(key);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key);
    }

    /** A parser that can travel with the option to Flink tasks. */
    public interface SerializableParser<T> extends Function<String, T>, Serializable {}

    /** A check of a parsed value: null if it passes, else the problem in a few words. */
    @FunctionalInterface
    public interface ValueCheck<T> extends Serializable {
        String problem(T value);
    }

    /** Picks the type. */
    public static final class Builder {
        private final String key;

        private Builder(String key) {
            this.key = key;
        }

        public TypedBuilder<Integer> intType() {
            return new TypedBuilder<>(key, s -> Integer.parseInt(s.trim()), "int");
        }

        public TypedBuilder<Long> longType() {
            return new TypedBuilder<>(key, s -> Long.parseLong(s.trim()), "long");
        }

        public TypedBuilder<Double> doubleType() {
            return new TypedBuilder<>(key, s -> Double.parseDouble(s.trim()), "double");
        }

        public TypedBuilder<Boolean> booleanType() {
            return new TypedBuilder<>(key, Builder::parseBoolean, "boolean");
        }

        public TypedBuilder<String> stringType() {
            return new TypedBuilder<>(key, s -> s, "string");
        }

        public TypedBuilder<MemorySize> memoryType() {
            return new TypedBuilder<>(key, MemorySize::parse, "memory size");
        }

        public TypedBuilder<Duration> durationType() {
            return new TypedBuilder<>(key, DurationParser::parse, "duration");
        }

        /** {@code k1:v1,k2:v2}, e.g. {@code '0:lz4,1:zstd'}. */
        public TypedBuilder<Map<String, String>> mapType() {
            return new TypedBuilder<>(key, Builder::parseMap, "map 'key:value,key:value'");
        }

        /** A string that must be one of {@code values} (compared ignoring case; the declared spelling is kept). */
        public TypedBuilder<String> oneOf(String... values) {
            List<String> allowed = List.of(values);
            return new TypedBuilder<>(key, s -> {
                for (String v : allowed) {
                    if (v.equalsIgnoreCase(s.trim())) {
                        return v;
                    }
                }
                throw new IllegalArgumentException("no such value");
            }, "one of " + String.join(", ", allowed));
        }

        public <E extends Enum<E>> TypedBuilder<E> enumType(Class<E> enumClass) {
            List<String> names = new ArrayList<>();
            for (E e : enumClass.getEnumConstants()) {
                names.add(e.toString());
            }
            return new TypedBuilder<>(key, s -> parseEnum(enumClass, s), "one of " + String.join(", ", names));
        }

        private static boolean parseBoolean(String s) {
            String t = s.trim().toLowerCase(Locale.ROOT);
            if (t.equals("true")) {
                return true;
            } else if (t.equals("false")) {
                return false;
            }
            throw new IllegalArgumentException("not a boolean");
        }

        private static Map<String, String> parseMap(String s) {
            Map<String, String> out = new LinkedHashMap<>();
            if (s.isBlank()) {
                return out;
            }
            for (String entry : s.split(",")) {
                int colon = entry.indexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException("entry '" + entry.trim() + "' is not 'key:value'");
                }
                out.put(entry.substring(0, colon).trim(), entry.substring(colon + 1).trim());
            }
            return out;
        }

        private static <E extends Enum<E>> E parseEnum(Class<E> enumClass, String s) {
            String wanted = s.trim().replace('-', '_');
            for (E e : enumClass.getEnumConstants()) {
                if (e.name().equalsIgnoreCase(wanted) || e.toString().equalsIgnoreCase(s.trim())) {
                    return e;
                }
            }
            throw new IllegalArgumentException("no such value");
        }
    }

    /** Sets the default. */
    public static final class TypedBuilder<T> {
        private final String key;
        private final SerializableParser<T> parser;
        private final String typeName;

        private TypedBuilder(String key, SerializableParser<T> parser, String typeName) {
            this.key = key;
            this.parser = parser;
            this.typeName = typeName;
        }

        public ConfigOption<T> defaultValue(T value) {
            return create(Objects.requireNonNull(value));
        }

        public ConfigOption<T> noDefaultValue() {
            return create(null);
        }

        private ConfigOption<T> create(T value) {
            return new ConfigOption<>(key, value, "", parser, typeName, List.of(), OptionStatus.SUPPORTED, "", null,
                    null, false, false);
        }
    }
}
