package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.List;

/**
 * The files of one (partition, bucket) of one snapshot to read together.
 *
 * @param rawConvertible whether rows can be read file by file without merging (always for append
 *     tables; for primary-key tables only when FORMAT §8.2's raw-read rule holds)
 */
public record DataSplit(long snapshotId, BinaryRow partition, int bucket, int totalBuckets,
        List<DataFileMeta> files, boolean rawConvertible) implements Split {

    public DataSplit {
        files = List.copyOf(files);
    }

    @Override
    public long rowCount() {
        long n = 0;
        for (DataFileMeta f : files) {
            n += f.rowCount();
        }
        return n;
    }
}
