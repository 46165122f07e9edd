package dev.streamhouse.storage.options;

import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** String key/value options (a table's, a catalog's) with typed access through {@link ConfigOption}s. */
public final class Options implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Map<String, String> map;

    public Options() {
        this.map = new HashMap<>();
    }

    public Options(Map<String, String> map) {
        this.map = new HashMap<>(map);
    }

    public static Options of(String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("Options.of needs key/value pairs");
        }
        Options o = new Options();
        for (int i = 0; i < keyValues.length; i += 2) {
            o.set(keyValues[i], keyValues[i + 1]);
        }
        return o;
    }

    /** The option's value (from its key, else from a fallback key), or its default (which may be null). */
    public <T> T get(ConfigOption<T> option) {
        String raw = raw(option);
        return raw == null ? option.defaultValue() : option.parse(raw);
    }

    /** The text set for the option under its key or, failing that, its first fallback key that is set. */
    private String raw(ConfigOption<?> option) {
        String raw = map.get(option.key());
        if (raw == null) {
            for (String fallback : option.fallbackKeys()) {
                raw = map.get(fallback);
                if (raw != null) {
                    break;
                }
            }
        }
        return raw;
    }

    public <T> Optional<T> getOptional(ConfigOption<T> option) {
        return Optional.ofNullable(get(option));
    }

    public String get(String key) {
        return map.get(key);
    }

    /** Whether the option is set, under its key or a fallback key. */
    public boolean contains(ConfigOption<?> option) {
        return raw(option) != null;
    }

    public boolean containsKey(String key) {
        return map.containsKey(key);
    }

    public Options set(String key, String value) {
        map.put(key, value);
        return this;
    }

    public <T> Options set(ConfigOption<T> option, T value) {
        map.put(option.key(), format(value));
        return this;
    }

    /** Text that the option parsers read back; Duration's own toString ("PT3S") is not such text. */
    private static String format(Object value) {
        return ConfigOption.formatValue(value);
    }

    public Options remove(String key) {
        map.remove(key);
        return this;
    }

    /** Entries whose keys start with {@code prefix}, with the prefix removed. */
    public Map<String, String> withPrefix(String prefix) {
        Map<String, String> out = new HashMap<>();
        map.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }

    /** An unmodifiable, key-sorted view. */
    public Map<String, String> toMap() {
        return Collections.unmodifiableMap(new TreeMap<>(map));
    }

    public Options copy() {
        return new Options(map);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Options && ((Options) o).map.equals(map);
    }

    @Override
    public int hashCode() {
        return map.hashCode();
    }

    @Override
    public String toString() {
        return SecretOptions.redacted(map).toString();
    }
}
