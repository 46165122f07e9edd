package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.serialization.RowBytes;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.RowKeyExtractor;

/**
 * Turns rows of one table, in one of its schemas, into {@link TableRow}s: the bytes the multi-table
 * writer reads back with the same schema, and the routing the writer's bucket ownership expects
 * (partition hash and bucket as the table's writers compute them; the trimmed key hash for dynamic
 * buckets; bucket 0 for a bucket-unaware append table, so that each of its partitions has one writer).
 * Takes primary-key tables with fixed or dynamic buckets and append tables with fixed buckets or
 * {@code bucket} = -1. Not thread-safe.
 */
public final class TableRowEncoder {
    private final String table;
    private final long schemaId;
    private final RowBytes bytes;
    private final RowKeyExtractor keys;
    private final boolean dynamicBucket;

    /** For rows of {@code table}'s current schema. */
    public TableRowEncoder(Table table) {
        this.table = table.fullName();
        this.schemaId = table.schema().id();
        this.bytes = new RowBytes(table.rowType());
        this.keys = RowKeyExtractor.of(table.schema());
        int buckets = table.schema().numBuckets();
        this.dynamicBucket = buckets == -1 && table.schema().hasPrimaryKey();
        if (buckets < 1 && buckets != -1) {
            throw new UnsupportedOperationException("Cannot write table " + table.fullName() + " with a "
                    + "multi-table sink: it takes tables with 'bucket' = -1 or a fixed number of buckets, not "
                    + buckets);
        }
    }

    public long schemaId() {
        return schemaId;
    }

    /** The row (of the schema's row type, with its kind) addressed to the table. */
    public TableRow encode(InternalRow row) {
        int partitionHash = keys.partition(row).formatHash();
        int routing = dynamicBucket ? keys.trimmedPrimaryKeyHash(row) : keys.bucket(row);
        return new TableRow(table, schemaId, bytes.toBytes(row), partitionHash, routing, dynamicBucket);
    }
}
