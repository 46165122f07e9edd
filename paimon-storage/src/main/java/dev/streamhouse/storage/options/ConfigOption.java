package dev.streamhouse.storage.options;

import java.io.Serializable;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * A typed option: key, default (may be null for "unset"), description and parser. Declared once, in a
 * small holder class per area, with the key Apache Paimon uses.
 */
public final class ConfigOption<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final T defaultValue;
    private final String description;
    private final SerializableParser<T> parser;
    private final String typeName;

    private ConfigOption(String key, T defaultValue, String description, SerializableParser<T> parser, String typeName) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.description = description;
        this.parser = parser;
        this.typeName = typeName;
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

    public ConfigOption<T> withDescription(String description) {
        return new ConfigOption<>(key, defaultValue, description, parser, typeName);
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

        public <E extends Enum<E>> TypedBuilder<E> enumType(Class<E> enumClass) {
            return new TypedBuilder<>(key, s -> parseEnum(enumClass, s), "one of " + java.util.Arrays.toString(enumClass.getEnumConstants()));
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

    /** Sets default and description. */
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
            return new ConfigOption<>(key, Objects.requireNonNull(value), "", parser, typeName);
        }

        public ConfigOption<T> noDefaultValue() {
            return new ConfigOption<>(key, null, "", parser, typeName);
        }
    }
}
