package dev.streamhouse.storage.bucket;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.RowType;

import java.io.Serializable;

/** Maps a bucket-key row to a bucket number in {@code [0, numBuckets)} (docs/format.md §7.3). */
public interface BucketFunction extends Serializable {

    int bucket(BinaryRow bucketKey, int numBuckets);

    /** The function for option {@code bucket-function.type} over keys of {@code bucketKeyType}. */
    static BucketFunction of(String type, RowType bucketKeyType) {
        switch (type.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "default":
                return new DefaultBucketFunction();
            case "mod":
                if (bucketKeyType.fieldCount() != 1
                        || (bucketKeyType.typeAt(0).root() != DataTypeRoot.INTEGER
                                && bucketKeyType.typeAt(0).root() != DataTypeRoot.BIGINT)) {
                    throw new IllegalArgumentException("Cannot use bucket-function.type 'mod': it needs a single "
                            + "INT or BIGINT bucket key, got " + bucketKeyType.fieldNames());
                }
                return new ModBucketFunction(bucketKeyType.typeAt(0).root() == DataTypeRoot.BIGINT);
            default:
                throw new IllegalArgumentException("Invalid value '" + type
                        + "' for option 'bucket-function.type': use 'default' or 'mod'");
        }
    }
}
