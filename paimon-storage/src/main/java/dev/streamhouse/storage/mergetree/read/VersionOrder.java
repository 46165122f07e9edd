package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.types.RowType;

import java.util.Comparator;

/**
 * Orders the versions of one key in the order a merge function receives them, so the last one is the
 * one that takes precedence. Without {@code sequence.field}: by {@code _SEQUENCE_NUMBER}. With it: by
 * the sequence fields of the value row (NULL is the smallest value), ascending for
 * {@code sequence.field.sort-order=ascending} (largest wins) and descending otherwise (smallest wins);
 * ties by {@code _SEQUENCE_NUMBER}, ascending. Only compare versions of the same key. Thread-safe.
 */
public final class VersionOrder implements Comparator<KeyValue> {
    private static final VersionOrder BY_SEQUENCE_NUMBER = new VersionOrder(null, true);

    /** Compares the sequence fields of value rows, or null when there are none. */
    private final Comparator<InternalRow> fields;
    private final boolean ascending;

    private VersionOrder(Comparator<InternalRow> fields, boolean ascending) {
        this.fields = fields;
        this.ascending = ascending;
    }

    /** Versions by {@code _SEQUENCE_NUMBER} only. */
    public static VersionOrder bySequenceNumber() {
        return BY_SEQUENCE_NUMBER;
    }

    /**
     * Versions by the sequence fields at {@code positions} of the value rows (of type
     * {@code valueType}), then by {@code _SEQUENCE_NUMBER}. An empty {@code positions} means
     * {@link #bySequenceNumber()}.
     */
    public static VersionOrder bySequenceFields(RowType valueType, int[] positions, boolean ascending) {
        if (positions.length == 0) {
            return BY_SEQUENCE_NUMBER;
        }
        return new VersionOrder(new KeyRowComparator(valueType, positions), ascending);
    }

    /** Whether user sequence fields decide before {@code _SEQUENCE_NUMBER}. */
    public boolean usesSequenceFields() {
        return fields != null;
    }

    @Override
    public int compare(KeyValue a, KeyValue b) {
        if (fields != null) {
            int c = fields.compare(a.value(), b.value());
            if (c != 0) {
                return ascending ? c : -c;
            }
        }
        return Long.compare(a.sequenceNumber(), b.sequenceNumber());
    }
}
