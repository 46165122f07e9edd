package dev.streamhouse.storage.table.source;

import java.util.List;

/**
 * Plans a batch read into splits: one snapshot's live files ({@code ReadBuilder.newScan()}), or the
 * changes between two snapshots ({@code incremental-between}). Read the splits with the
 * {@link TableRead} of the same {@link ReadBuilder}.
 */
public interface TableScan {

    /**
     * The splits to read and the snapshot they come from: the snapshot read, or for a range of changes
     * the last snapshot of the range; null when there is nothing to read from (an empty table).
     */
    record Plan(Long snapshotId, List<DataSplit> splits) {
        public Plan {
            splits = List.copyOf(splits);
        }
    }

    /**
     * Plans the read.
     *
     * @throws java.io.UncheckedIOException if the table's metadata cannot be read
     * @throws IllegalArgumentException if the chosen snapshot does not exist
     */
    Plan plan();
}
