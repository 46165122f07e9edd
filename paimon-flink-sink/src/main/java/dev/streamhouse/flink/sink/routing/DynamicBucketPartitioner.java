package dev.streamhouse.flink.sink.routing;

import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;
import org.apache.flink.api.common.functions.Partitioner;

/**
 * Bucket assigner channel of a row of a dynamic-bucket table: {@link AssignerRouting#channel} with
 * {@link AssignerRouting#numAssigners} of {@code dynamic-bucket.initial-buckets} and the channel
 * count assigners per partition, as Apache Paimon routes. Assigner {@code i} then runs
 * {@code AssignerRouting(numChannels, numAssigners, i)}, which receives exactly these rows.
 */
public final class DynamicBucketPartitioner implements Partitioner<Long> {
    private static final long serialVersionUID = 1L;

    private final Integer initialBuckets;

    /** @param initialBuckets {@code dynamic-bucket.initial-buckets}, or null if unset */
    public DynamicBucketPartitioner(Integer initialBuckets) {
        this.initialBuckets = initialBuckets;
    }

    @Override
    public int partition(Long routeKey, int numChannels) {
        return AssignerRouting.channel(RouteKey.high(routeKey), RouteKey.low(routeKey), numChannels,
                AssignerRouting.numAssigners(initialBuckets, numChannels));
    }
}
