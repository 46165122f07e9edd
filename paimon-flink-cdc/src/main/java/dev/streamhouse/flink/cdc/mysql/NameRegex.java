package dev.streamhouse.flink.cdc.mysql;

/**
 * Database and table names as the regular expressions the {@code mysql-cdc} options
 * {@code database-name} and {@code table-name} take: a name quoted to match only itself, and whether
 * a regular expression is a plain name.
 */
public final class NameRegex {
    private static final String SPECIAL = "\\.[]{}()<>*+-=!?^$|";

    private NameRegex() {}

    /** A regular expression that matches exactly {@code name}. */
    public static String literal(String name) {
        StringBuilder regex = new StringBuilder();
        for (char c : name.toCharArray()) {
            if (SPECIAL.indexOf(c) >= 0) {
                regex.append('\\');
            }
            regex.append(c);
        }
        return regex.toString();
    }

    /** Whether {@code regex} has no special character, so it matches only the name it spells. */
    public static boolean isLiteral(String regex) {
        return regex.chars().noneMatch(c -> SPECIAL.indexOf(c) >= 0);
    }
}
