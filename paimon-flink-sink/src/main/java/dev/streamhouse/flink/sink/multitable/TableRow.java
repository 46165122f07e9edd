package dev.streamhouse.flink.sink.multitable;

import java.util.Arrays;
import java.util.Objects;

/**
 * One row on its way to one of the tables a multi-table sink writes: the table's full name, the id
 * of the table schema the row is in, the row (with its kind) in {@link dev.streamhouse.storage.serialization.RowBytes}
 * form of that schema's row type, and where it goes: its partition's hash and either its fixed bucket
 * or, for a dynamic-bucket table, the hash of its trimmed primary key. Made by
 * {@link TableRowEncoder}; routed by {@link TableRowPartitioner}.
 */
public final class TableRow {
    private final String table;
    private final long schemaId;
    private final byte[] row;
    private final int partitionHash;
    private final int bucketOrKeyHash;
    private final boolean dynamicBucket;

    public TableRow(String table, long schemaId, byte[] row, int partitionHash, int bucketOrKeyHash,
            boolean dynamicBucket) {
        this.table = Objects.requireNonNull(table, "table");
        this.schemaId = schemaId;
        this.row = Objects.requireNonNull(row, "row");
        this.partitionHash = partitionHash;
        this.bucketOrKeyHash = bucketOrKeyHash;
        this.dynamicBucket = dynamicBucket;
    }

    /** The table's full name, {@code database.table}. */
    public String table() {
        return table;
    }

    public long schemaId() {
        return schemaId;
    }

    /** The row's bytes; not copied, do not modify. */
    public byte[] row() {
        return row;
    }

    public int partitionHash() {
        return partitionHash;
    }

    /** The bucket, or for a row still to be assigned a dynamic bucket the trimmed primary key's hash. */
    public int bucketOrKeyHash() {
        return bucketOrKeyHash;
    }

    /** Whether the row belongs to a dynamic-bucket table and has no bucket yet. */
    public boolean dynamicBucket() {
        return dynamicBucket;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableRow other && table.equals(other.table) && schemaId == other.schemaId
                && Arrays.equals(row, other.row) && partitionHash == other.partitionHash
                && bucketOrKeyHash == other.bucketOrKeyHash && dynamicBucket == other.dynamicBucket;
    }

    @Override
    public int hashCode() {
        return Objects.hash(table, schemaId, Arrays.hashCode(row), partitionHash, bucketOrKeyHash);
    }

    @Override
    public String toString() {
        return "TableRow{" + table + ", schema " + schemaId + ", " + row.length + " bytes, "
                + (dynamicBucket ? "key hash " : "bucket ") + bucketOrKeyHash + "}";
    }
}
