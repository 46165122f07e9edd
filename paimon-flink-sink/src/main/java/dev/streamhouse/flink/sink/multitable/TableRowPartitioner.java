package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.flink.sink.routing.FixedBucketPartitioner;
import dev.streamhouse.storage.data.BinaryRow;
import org.apache.flink.api.common.functions.Partitioner;

/**
 * The writer channel of a {@link TableRow}, so that each (table, partition, bucket) has exactly one
 * writer: {@link FixedBucketPartitioner#channel} of the partition hash mixed with the table name's
 * hash (tables' bucket 0 spread over the writers) and the bucket, fixed or assigned by the
 * {@link MultiTableBucketAssignerOperator}. Writers derive the buckets they own from the same
 * function ({@link #ownsFixedBucket}).
 */
public final class TableRowPartitioner implements Partitioner<TableRow> {
    private static final long serialVersionUID = 1L;

    @Override
    public int partition(TableRow row, int numChannels) {
        if (row.dynamicBucket()) {
            throw new IllegalStateException("Row of dynamic-bucket table " + row.table() + " reached the writers"
                    + " without a bucket; it must pass the bucket assigner");
        }
        return fixedChannel(row.table(), row.partitionHash(), row.bucketOrKeyHash(), numChannels);
    }

    static int fixedChannel(String table, int partitionHash, int bucket, int numChannels) {
        return FixedBucketPartitioner.channel(31 * table.hashCode() + partitionHash, bucket, numChannels);
    }

    /** Whether writer {@code index} of {@code numChannels} owns fixed bucket {@code bucket} of the partition. */
    static boolean ownsFixedBucket(String table, BinaryRow partition, int bucket, int numChannels, int index) {
        return fixedChannel(table, partition.formatHash(), bucket, numChannels) == index;
    }
}
