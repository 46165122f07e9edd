package dev.streamhouse.storage.options;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * A service ({@code META-INF/services/dev.streamhouse.storage.options.OptionDeclarations}) listing the
 * options one module declares, so that {@link OptionRegistry} knows every option on the classpath:
 * the storage's own, and those of the engine connectors (sink, source, catalog) that read table
 * options too. Implementations are stateless and have a public no-argument constructor.
 */
public interface OptionDeclarations {

    /** Whose options: a table's (also usable as dynamic options) or a catalog's. */
    enum Kind {
        TABLE,
        CATALOG
    }

    /** The groups of options this module declares, in documentation order. */
    List<Group> groups();

    /** Options of one area, e.g. "Merge tree", with the families of templated keys that belong to it. */
    final class Group {
        private final String title;
        private final Kind kind;
        private final List<ConfigOption<?>> options;
        private final List<OptionPattern> patterns;

        public Group(String title, Kind kind, List<ConfigOption<?>> options, List<OptionPattern> patterns) {
            this.title = title;
            this.kind = kind;
            this.options = List.copyOf(options);
            this.patterns = List.copyOf(patterns);
        }

        /**
         * The public static {@link ConfigOption} and {@link OptionPattern} fields of {@code holder}, in
         * declaration order: a holder class declares each option once, and this lists it.
         */
        public static Group ofHolder(String title, Kind kind, Class<?> holder) {
            List<ConfigOption<?>> options = new ArrayList<>();
            List<OptionPattern> patterns = new ArrayList<>();
            for (Field f : holder.getFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                try {
                    Object value = f.get(null);
                    if (value instanceof ConfigOption) {
                        options.add((ConfigOption<?>) value);
                    } else if (value instanceof OptionPattern) {
                        patterns.add((OptionPattern) value);
                    }
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("Cannot read option declaration " + holder.getName() + "."
                            + f.getName(), e);
                }
            }
            return new Group(title, kind, options, patterns);
        }

        public String title() {
            return title;
        }

        public Kind kind() {
            return kind;
        }

        public List<ConfigOption<?>> options() {
            return options;
        }

        public List<OptionPattern> patterns() {
            return patterns;
        }
    }
}
