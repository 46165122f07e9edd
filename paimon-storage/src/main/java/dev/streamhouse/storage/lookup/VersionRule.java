package dev.streamhouse.storage.lookup;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.types.RowType;

/**
 * Which of two versions of a primary key a lookup cache keeps, as a merge of the table would: without
 * {@code sequence.field} the one read last; with it the one with the larger (for
 * {@code sequence.field.sort-order} = descending: smaller) sequence fields, ties to the one read last.
 * For a table whose key does not hold every partition field (cross-partition upsert), a delete of a
 * key removes the cached row only if it is in the same partition: a row that moved partitions in one
 * snapshot must not be removed by the delete of its old copy, whatever order the buckets are read in.
 */
final class VersionRule {
    private final KeyRowComparator sequence;
    private final boolean ascending;
    private final KeyRowComparator partition;

    /**
     * @param sequencePositions positions of the sequence fields in the cached rows (empty: none)
     * @param partitionPositions positions of the partition fields when deletes must match them, else empty
     */
    VersionRule(RowType rowType, int[] sequencePositions, boolean ascending, int[] partitionPositions) {
        this.sequence = sequencePositions.length == 0 ? null : new KeyRowComparator(rowType, sequencePositions);
        this.ascending = ascending;
        this.partition = partitionPositions.length == 0 ? null : new KeyRowComparator(rowType, partitionPositions);
    }

    /** Whether {@code incoming} (an insert or update) replaces the cached {@code current}. */
    boolean replaces(InternalRow current, InternalRow incoming) {
        return notOlder(current, incoming);
    }

    /** Whether the delete {@code delete} removes the cached {@code current}. */
    boolean removes(InternalRow current, InternalRow delete) {
        if (partition != null && partition.compare(current, delete) != 0) {
            return false;
        }
        return notOlder(current, delete);
    }

    /** Whether the current row must be read before a change is applied. */
    boolean needsCurrent() {
        return sequence != null || partition != null;
    }

    private boolean notOlder(InternalRow current, InternalRow incoming) {
        if (sequence == null) {
            return true;
        }
        int c = sequence.compare(incoming, current);
        return ascending ? c >= 0 : c <= 0;
    }
}
