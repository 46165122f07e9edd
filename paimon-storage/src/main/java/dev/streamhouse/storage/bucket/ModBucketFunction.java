package dev.streamhouse.storage.bucket;

import dev.streamhouse.storage.data.BinaryRow;

/** {@code floorMod(key, numBuckets)} for a single INT or BIGINT bucket key. */
final class ModBucketFunction implements BucketFunction {
    private static final long serialVersionUID = 1L;

    private final boolean bigint;

    ModBucketFunction(boolean bigint) {
        this.bigint = bigint;
    }

    @Override
    public int bucket(BinaryRow bucketKey, int numBuckets) {
        long key = bigint ? bucketKey.longAt(0) : bucketKey.intAt(0);
        return (int) Math.floorMod(key, (long) numBuckets);
    }
}
