package dev.streamhouse.flink.cdc.event;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A source table's schema as of one point in the binlog: its columns in order and its primary key.
 * The version counts the schemas one reader has seen for the table since it started (1 for the
 * first) and grows by one with each change. A reader restored from a checkpoint counts from 1
 * again, so a sink compares schemas ({@link #sameStructure}) across restarts, not versions.
 */
public final class CdcSchema implements Serializable {
    private static final long serialVersionUID = 1L;

    private final CdcTableId table;
    private final List<CdcColumn> columns;
    private final List<String> primaryKeys;
    private final int version;

    public CdcSchema(CdcTableId table, List<CdcColumn> columns, List<String> primaryKeys, int version) {
        this.table = Objects.requireNonNull(table, "table");
        this.columns = List.copyOf(columns);
        this.primaryKeys = List.copyOf(primaryKeys);
        this.version = version;
    }

    public CdcTableId table() {
        return table;
    }

    public List<CdcColumn> columns() {
        return columns;
    }

    public List<String> primaryKeys() {
        return primaryKeys;
    }

    public int version() {
        return version;
    }

    public List<String> columnNames() {
        List<String> names = new ArrayList<>(columns.size());
        for (CdcColumn c : columns) {
            names.add(c.name());
        }
        return names;
    }

    /** The column's position, -1 when the table has no such column. */
    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(column)) {
                return i;
            }
        }
        return -1;
    }

    /** The same columns and key under another version number. */
    public CdcSchema withVersion(int newVersion) {
        return new CdcSchema(table, columns, primaryKeys, newVersion);
    }

    /** Same columns and key, whatever the versions. */
    public boolean sameStructure(CdcSchema other) {
        return table.equals(other.table) && columns.equals(other.columns) && primaryKeys.equals(other.primaryKeys);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CdcSchema other && version == other.version && sameStructure(other);
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, columns, primaryKeys, version);
    }

    @Override
    public String toString() {
        return table + " v" + version + " " + columns + " PRIMARY KEY " + primaryKeys;
    }
}
