package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.List;
import java.util.Objects;

/**
 * A compaction that an {@link AppendCompactCoordinator} planned for a bucket-unaware append table:
 * rewrite these committed files of one partition together. An {@link AppendCompactWorker} runs it.
 * Engines carry tasks in the binary form of
 * {@link dev.streamhouse.storage.serialization.AppendCompactTaskSerializer}. Immutable.
 *
 * @param partition the partition of the files
 * @param files two or more live files of the partition's bucket 0
 */
public record AppendCompactTask(BinaryRow partition, List<DataFileMeta> files) {
    public AppendCompactTask {
        Objects.requireNonNull(partition, "partition");
        files = List.copyOf(files);
        if (files.isEmpty()) {
            throw new IllegalArgumentException("An append compaction task needs files to compact");
        }
    }

    @Override
    public String toString() {
        return "AppendCompactTask{partition " + partition + ", " + files.size() + " files}";
    }
}
