package dev.streamhouse.storage.options;

import dev.streamhouse.storage.options.OptionDeclarations.Group;
import dev.streamhouse.storage.options.OptionDeclarations.Kind;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Every option declared on the classpath (found through {@link OptionDeclarations} services), by key,
 * fallback key or template. Built once per class loader that sees the declarations.
 */
public final class OptionRegistry {
    private static final Map<ClassLoader, OptionRegistry> BY_LOADER = Collections.synchronizedMap(new HashMap<>());

    private final List<Group> groups;
    private final Map<Kind, Map<String, ConfigOption<?>>> byKey = new HashMap<>();
    private final Map<Kind, Map<String, ConfigOption<?>>> byFallbackKey = new HashMap<>();
    private final Map<Kind, List<OptionPattern>> patterns = new HashMap<>();

    OptionRegistry(List<Group> groups) {
        this.groups = List.copyOf(groups);
        for (Kind kind : Kind.values()) {
            byKey.put(kind, new LinkedHashMap<>());
            byFallbackKey.put(kind, new HashMap<>());
            patterns.put(kind, new ArrayList<>());
        }
        for (Group group : groups) {
            for (ConfigOption<?> option : group.options()) {
                ConfigOption<?> previous = byKey.get(group.kind()).putIfAbsent(option.key(), option);
                if (previous != null && previous != option) {
                    throw new IllegalStateException("Option '" + option.key() + "' is declared twice (group '"
                            + group.title() + "'); declare each option once");
                }
                for (String fallback : option.fallbackKeys()) {
                    byFallbackKey.get(group.kind()).put(fallback, option);
                }
            }
            patterns.get(group.kind()).addAll(group.patterns());
        }
    }

    /** The options declared by every {@link OptionDeclarations} service this class's loader sees. */
    public static OptionRegistry instance() {
        ClassLoader loader = OptionRegistry.class.getClassLoader();
        return BY_LOADER.computeIfAbsent(loader, l -> {
            List<Group> groups = new ArrayList<>();
            for (OptionDeclarations declarations : ServiceLoader.load(OptionDeclarations.class, l)) {
                groups.addAll(declarations.groups());
            }
            groups.sort((a, b) -> a.kind() == b.kind() ? 0 : a.kind().compareTo(b.kind()));
            return new OptionRegistry(groups);
        });
    }

    /** Every group, table groups first, each module's groups in its declaration order. */
    public List<Group> groups() {
        return groups;
    }

    /** The option {@code key} names, by its own key or a fallback key. */
    public Optional<ConfigOption<?>> option(Kind kind, String key) {
        ConfigOption<?> option = byKey.get(kind).get(key);
        if (option == null) {
            option = byFallbackKey.get(kind).get(key);
        }
        return Optional.ofNullable(option);
    }

    /** The family of templated keys {@code key} belongs to, if it names no option of its own. */
    public Optional<OptionPattern> pattern(Kind kind, String key) {
        for (OptionPattern pattern : patterns.get(kind)) {
            if (pattern.matches(key)) {
                return Optional.of(pattern);
            }
        }
        return Optional.empty();
    }

    /** Whether {@code key} is declared, as an option, a fallback key or a templated key. */
    public boolean isKnown(Kind kind, String key) {
        return option(kind, key).isPresent() || pattern(kind, key).isPresent();
    }

    /**
     * Whether a table option is fixed when the table is created: declared immutable, or a
     * {@code *remove-record-on-*} option, which Paimon treats so whatever its prefix.
     */
    public boolean isImmutable(String key) {
        return key.contains("remove-record-on-") || option(Kind.TABLE, key).map(ConfigOption::isImmutable).orElse(false);
    }

    /** Every immutable table option key, sorted. */
    public List<String> immutableKeys() {
        List<String> out = new ArrayList<>();
        for (ConfigOption<?> option : byKey.get(Kind.TABLE).values()) {
            if (option.isImmutable()) {
                out.add(option.key());
            }
        }
        Collections.sort(out);
        return out;
    }

    /** The declared key most like {@code key} (for "did you mean"), if one is close enough to help. */
    public Optional<String> nearestKey(Kind kind, String key) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : byKey.get(kind).keySet()) {
            int d = editDistance(key, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        int tolerated = Math.max(2, key.length() / 4);
        return bestDistance <= tolerated ? Optional.ofNullable(best) : Optional.empty();
    }

    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
