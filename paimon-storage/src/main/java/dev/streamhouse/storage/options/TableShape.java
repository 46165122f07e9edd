package dev.streamhouse.storage.options;

import java.util.List;

/** What option rules need to know of a table besides its options: column names and keys. */
public final class TableShape {
    private final List<String> columns;
    private final List<String> primaryKeys;
    private final List<String> partitionKeys;

    public TableShape(List<String> columns, List<String> primaryKeys, List<String> partitionKeys) {
        this.columns = List.copyOf(columns);
        this.primaryKeys = List.copyOf(primaryKeys);
        this.partitionKeys = List.copyOf(partitionKeys);
    }

    public List<String> columns() {
        return columns;
    }

    public List<String> primaryKeys() {
        return primaryKeys;
    }

    public List<String> partitionKeys() {
        return partitionKeys;
    }

    public boolean hasPrimaryKey() {
        return !primaryKeys.isEmpty();
    }

    /** A primary key without every partition key: rows of one key may move between partitions. */
    public boolean crossPartitionUpsert() {
        return hasPrimaryKey() && !primaryKeys.containsAll(partitionKeys);
    }
}
