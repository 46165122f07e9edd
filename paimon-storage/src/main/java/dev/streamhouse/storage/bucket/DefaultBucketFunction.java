package dev.streamhouse.storage.bucket;

import dev.streamhouse.storage.data.BinaryRow;

/** {@code abs(murmurHash(keyRow) % numBuckets)}, Java remainder semantics. */
final class DefaultBucketFunction implements BucketFunction {
    private static final long serialVersionUID = 1L;

    @Override
    public int bucket(BinaryRow bucketKey, int numBuckets) {
        return Math.abs(bucketKey.formatHash() % numBuckets);
    }
}
