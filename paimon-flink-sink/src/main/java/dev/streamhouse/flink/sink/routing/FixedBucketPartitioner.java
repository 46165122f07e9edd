package dev.streamhouse.flink.sink.routing;

import org.apache.flink.api.common.functions.Partitioner;

/**
 * Writer channel of a (partition, bucket) of a fixed-bucket table: the partition's buckets go to
 * consecutive channels starting at {@code floorMod(partitionHash, n)}, so each (partition, bucket) has
 * exactly one writer and a partition's buckets spread over all writers.
 */
public final class FixedBucketPartitioner implements Partitioner<Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public int partition(Long routeKey, int numChannels) {
        return channel(RouteKey.high(routeKey), RouteKey.low(routeKey), numChannels);
    }

    public static int channel(int partitionHash, int bucket, int numChannels) {
        return Math.floorMod(Math.floorMod(partitionHash, numChannels) + bucket, numChannels);
    }
}
