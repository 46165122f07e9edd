package dev.streamhouse.storage.bucket.dynamic;

/**
 * The highest bucket number one assigner has returned so far, in any partition (-1 before the
 * first). Shared by the {@link PartitionBucketIndex}es of one {@link DynamicBucketAssigner}, because
 * Paimon 1.3 decides whether a partition may still open a bucket under {@code max-buckets} from this
 * assigner-wide value, not from the partition's own buckets.
 */
final class HighestBucket {
    private int value = -1;

    int value() {
        return value;
    }

    void observe(int bucket) {
        if (bucket > value) {
            value = bucket;
        }
    }
}
