package dev.streamhouse.storage.catalog;

import java.io.Serializable;

/** A table name within a database. */
public record Identifier(String database, String table) implements Serializable {

    public static Identifier of(String database, String table) {
        return new Identifier(database, table);
    }

    /** Parses {@code db.table}. */
    public static Identifier fromString(String fullName) {
        int dot = fullName.indexOf('.');
        if (dot <= 0 || dot == fullName.length() - 1) {
            throw new IllegalArgumentException("Cannot parse table identifier '" + fullName + "': expected 'database.table'");
        }
        return new Identifier(fullName.substring(0, dot), fullName.substring(dot + 1));
    }

    public String fullName() {
        return database + "." + table;
    }

    @Override
    public String toString() {
        return fullName();
    }
}
