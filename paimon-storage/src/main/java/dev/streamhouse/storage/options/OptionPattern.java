package dev.streamhouse.storage.options;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A family of options whose keys follow a template, e.g. {@code fields.<field>.aggregate-function}
 * or {@code parquet.*}. In the template, {@code <field>} stands for a column name (or several, joined
 * by commas, as in {@code fields.a,b.sequence-group}), {@code <class>} for a class name (dots
 * allowed), any other {@code <name>} for one key segment without dots, and a trailing {@code *} for
 * anything. Type, default, status and description come
 * from a prototype {@link ConfigOption} whose key is the template.
 */
public final class OptionPattern implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final String FIELD = "<field>";

    private final ConfigOption<?> prototype;
    private final Pattern regex;
    private final boolean namesColumns;

    private OptionPattern(ConfigOption<?> prototype) {
        this.prototype = prototype;
        this.namesColumns = prototype.key().contains(FIELD);
        this.regex = Pattern.compile(toRegex(prototype.key()));
    }

    /** A pattern declared by its prototype; the prototype's key is the template. */
    public static OptionPattern of(ConfigOption<?> prototype) {
        return new OptionPattern(prototype);
    }

    private static String toRegex(String template) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c == '<') {
                int end = template.indexOf('>', i);
                String name = template.substring(i, end + 1);
                out.append(name.equals(FIELD) ? "([^.]+)" : name.equals("<class>") ? ".+" : "[^.]+");
                i = end + 1;
            } else if (c == '*' && i == template.length() - 1) {
                out.append(".+");
                i++;
            } else {
                out.append(Pattern.quote(String.valueOf(c)));
                i++;
            }
        }
        return out.toString();
    }

    /** The template, e.g. {@code fields.<field>.aggregate-function}. */
    public String template() {
        return prototype.key();
    }

    /**
     * The key of this family for one column, e.g. {@code fields.price.ignore-retract} for
     * {@code fields.<field>.ignore-retract}.
     *
     * @throws IllegalStateException if the template has no {@code <field>} part
     */
    public String keyFor(String column) {
        if (!namesColumns) {
            throw new IllegalStateException("Cannot name a column in option '" + template() + "': it has no "
                    + FIELD + " part");
        }
        return template().replace(FIELD, column);
    }

    /** Type, default, status and description of every option of the family. */
    public ConfigOption<?> prototype() {
        return prototype;
    }

    public boolean matches(String key) {
        return regex.matcher(key).matches();
    }

    /** The column names a matching key names in its {@code <field>} part, if the template has one. */
    public Optional<List<String>> columns(String key) {
        if (!namesColumns) {
            return Optional.empty();
        }
        Matcher m = regex.matcher(key);
        if (!m.matches()) {
            return Optional.empty();
        }
        return Optional.of(List.of(m.group(1).split(",")));
    }

    @Override
    public String toString() {
        return template();
    }
}
