package dev.streamhouse.storage.catalog;

/**
 * Validates database and table names, which become directory names: a name must never reach outside
 * its warehouse or database directory.
 */
public final class Names {
    /** The database name reserved for system tables. */
    static final String SYSTEM_DATABASE = "sys";
    /** Marks system tables, e.g. {@code t$snapshots}. */
    static final char SYSTEM_TABLE_SPLITTER = '$';

    private Names() {}

    public static void validateDatabase(String name) {
        validate("database", name);
        if (name.equals(SYSTEM_DATABASE)) {
            throw new IllegalArgumentException("Cannot use database name 'sys': it is reserved for system tables");
        }
    }

    public static void validateTable(String name) {
        validate("table", name);
        if (name.indexOf(SYSTEM_TABLE_SPLITTER) >= 0) {
            throw new IllegalArgumentException("Cannot use table name '" + name
                    + "': '$' is reserved for system tables such as t$snapshots");
        }
    }

    /** A valid target name in the same database as {@code from}. */
    public static void validateRename(Identifier from, Identifier to) {
        validateDatabase(to.database());
        validateTable(to.table());
        if (!from.database().equals(to.database())) {
            throw new IllegalArgumentException("Cannot rename table '" + from + "' to '" + to
                    + "': tables can only be renamed within their database");
        }
    }

    private static void validate(String kind, String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("Cannot use an empty " + kind + " name");
        }
        if (name.isBlank()) {
            throw new IllegalArgumentException("Cannot use a blank " + kind + " name");
        }
        if (name.equals(".") || name.contains("..")) {
            throw new IllegalArgumentException("Cannot use " + kind + " name '" + name + "': it must not contain '..'");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '\\') {
                throw new IllegalArgumentException("Cannot use " + kind + " name '" + name
                        + "': it must not contain path separators");
            }
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException("Cannot use " + kind + " name " + printable(name)
                        + ": it must not contain control characters");
            }
        }
        if (name.startsWith(".")) {
            throw new IllegalArgumentException("Cannot use " + kind + " name '" + name
                    + "': it must not start with '.' (hidden files are ignored by listings)");
        }
    }

    private static String printable(String s) {
        StringBuilder sb = new StringBuilder("'");
        for (char c : s.toCharArray()) {
            sb.append(Character.isISOControl(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return sb.append("'").toString();
    }
}
