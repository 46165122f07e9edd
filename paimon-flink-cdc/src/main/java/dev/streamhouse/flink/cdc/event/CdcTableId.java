package dev.streamhouse.flink.cdc.event;

import java.io.Serializable;
import java.util.Objects;

/** A source table: its database (MySQL schema) and name. */
public final class CdcTableId implements Serializable, Comparable<CdcTableId> {
    private static final long serialVersionUID = 1L;

    private final String database;
    private final String table;

    public CdcTableId(String database, String table) {
        this.database = Objects.requireNonNull(database, "database");
        this.table = Objects.requireNonNull(table, "table");
    }

    public String database() {
        return database;
    }

    public String table() {
        return table;
    }

    @Override
    public int compareTo(CdcTableId other) {
        int c = database.compareTo(other.database);
        return c != 0 ? c : table.compareTo(other.table);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CdcTableId other && database.equals(other.database) && table.equals(other.table);
    }

    @Override
    public int hashCode() {
        return database.hashCode() * 31 + table.hashCode();
    }

    @Override
    public String toString() {
        return database + "." + table;
    }
}
