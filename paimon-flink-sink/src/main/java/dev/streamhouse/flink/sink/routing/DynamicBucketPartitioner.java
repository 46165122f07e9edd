package dev.streamhouse.flink.sink.routing;

import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;
import org.apache.flink.api.common.functions.Partitioner;

/**
 * Writer channel of a row of a dynamic-bucket table: {@link AssignerRouting#channel} with one
 * assigner per writer ({@code numAssigners = numChannels}). Writer {@code i} then runs the assigner
 * {@code AssignerRouting(numChannels, numChannels, i)}, which receives exactly these rows and opens
 * only buckets {@code b} with {@code b % numChannels == i}: no bucket has two writers.
 */
public final class DynamicBucketPartitioner implements Partitioner<Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public int partition(Long routeKey, int numChannels) {
        return AssignerRouting.channel(RouteKey.high(routeKey), RouteKey.low(routeKey), numChannels, numChannels);
    }
}
