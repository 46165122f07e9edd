package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.aggregate.FieldAggregator;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The {@code partial-update} merge engine over value rows of one layout (all columns, or a read
 * projection). Without sequence groups, each version overwrites the columns it has non-null. With
 * them, a group's columns change only when the version's group sequence is at least the merged one
 * (then even to NULL), and a version whose group sequence columns are all NULL leaves the group alone;
 * a group column with an aggregate function folds every version in, the older ones through
 * {@link FieldAggregator#aggReversed}. Retractions (-U/-D) are ignored with {@code ignore-delete},
 * remove the row on -D with {@code partial-update.remove-record-on-delete}, and with sequence groups
 * retract the groups they are newer than (removing the row for the groups named by
 * {@code partial-update.remove-record-on-sequence-group}). The result is +I, or -D when the row was
 * removed or no insert was seen, with the newest sequence number. As Apache Paimon 1.3 merges.
 */
final class PartialUpdateMergeFunction implements MergeFunction {

    /** A sequence group in this layout: its sequence positions and how versions compare on them. */
    record Group(int[] sequencePositions, Comparator<InternalRow> order, boolean removesRowOnDelete) {
        boolean isSequencePosition(int pos) {
            for (int s : sequencePositions) {
                if (s == pos) {
                    return true;
                }
            }
            return false;
        }

        boolean isEmptyIn(InternalRow value) {
            for (int s : sequencePositions) {
                if (!value.isNullAt(s)) {
                    return false;
                }
            }
            return true;
        }
    }

    private final LayoutColumns columns;
    private final FieldGetter[] getters;
    /** Group of each position, or null. */
    private final Group[] groups;
    private final boolean hasGroups;
    /** Aggregator of each position, or null. */
    private final FieldAggregator[] aggregators;
    private final boolean ignoreDelete;
    private final boolean removeRecordOnDelete;
    private final boolean[] sequenceUpdated;

    private InternalRow currentKey;
    private long latestSequenceNumber;
    private GenericRow row;
    private boolean currentDeleteRow;
    private boolean notNullColumnsFilled;
    private boolean meetInsert;

    PartialUpdateMergeFunction(LayoutColumns columns, Group[] groups, boolean hasGroups,
            FieldAggregator[] aggregators, boolean ignoreDelete, boolean removeRecordOnDelete) {
        this.columns = columns;
        this.getters = columns.getters;
        this.groups = groups;
        this.hasGroups = hasGroups;
        this.aggregators = aggregators;
        this.ignoreDelete = ignoreDelete;
        this.removeRecordOnDelete = removeRecordOnDelete;
        this.sequenceUpdated = new boolean[getters.length];
    }

    @Override
    public void reset() {
        currentKey = null;
        meetInsert = false;
        notNullColumnsFilled = false;
        row = new GenericRow(getters.length);
        latestSequenceNumber = 0;
        for (FieldAggregator a : aggregators) {
            if (a != null) {
                a.reset();
            }
        }
    }

    @Override
    public void add(KeyValue kv) {
        currentKey = kv.key();
        currentDeleteRow = false;
        if (kv.isRetract()) {
            if (!notNullColumnsFilled) {
                copyNotNullColumns(row, kv.value());
                notNullColumnsFilled = true;
            }
            if (ignoreDelete) {
                return;
            }
            latestSequenceNumber = kv.sequenceNumber();
            if (hasGroups) {
                retractGroups(kv);
            } else if (removeRecordOnDelete) {
                if (kv.valueKind() == RowKind.DELETE) {
                    removeRow(kv.value());
                }
            } else {
                throw new IllegalArgumentException(PartialUpdateEngine.RETRACT_REFUSAL);
            }
            return;
        }
        latestSequenceNumber = kv.sequenceNumber();
        if (hasGroups) {
            updateGroups(kv.value());
        } else {
            updateNonNullColumns(kv.value());
        }
        meetInsert = true;
        notNullColumnsFilled = true;
    }

    private void updateNonNullColumns(InternalRow value) {
        for (int i = 0; i < getters.length; i++) {
            Object field = getters[i].get(value);
            if (field != null) {
                row.setField(i, field);
            } else if (!columns.nullable[i]) {
                throw columns.notNull(i);
            }
        }
    }

    private void updateGroups(InternalRow value) {
        for (int i = 0; i < getters.length; i++) {
            Group group = groups[i];
            FieldAggregator aggregator = aggregators[i];
            Object accumulator = row.field(i);
            if (group == null) {
                Object field = getters[i].get(value);
                if (aggregator != null) {
                    row.setField(i, aggregator.agg(accumulator, field));
                } else if (field != null) {
                    row.setField(i, field);
                }
                continue;
            }
            if (group.isEmptyIn(value)) {
                continue;
            }
            Object field = getters[i].get(value);
            if (group.order().compare(value, row) >= 0) {
                if (group.isSequencePosition(i)) {
                    for (int s : group.sequencePositions()) {
                        row.setField(s, getters[s].get(value));
                    }
                } else {
                    row.setField(i, aggregator == null ? field : aggregator.agg(accumulator, field));
                }
            } else if (aggregator != null) {
                row.setField(i, aggregator.aggReversed(accumulator, field));
            }
        }
    }

    private void retractGroups(KeyValue kv) {
        InternalRow value = kv.value();
        Arrays.fill(sequenceUpdated, false);
        for (int i = 0; i < getters.length; i++) {
            Group group = groups[i];
            if (group == null || group.isEmptyIn(value)) {
                continue;
            }
            FieldAggregator aggregator = aggregators[i];
            if (group.order().compare(value, row) >= 0) {
                if (group.isSequencePosition(i)) {
                    for (int s : group.sequencePositions()) {
                        if (sequenceUpdated[s]) {
                            continue;
                        }
                        if (kv.valueKind() == RowKind.DELETE && group.removesRowOnDelete()) {
                            removeRow(value);
                            return;
                        }
                        row.setField(s, getters[s].get(value));
                        sequenceUpdated[s] = true;
                    }
                } else {
                    row.setField(i, aggregator == null ? null : aggregator.retract(row.field(i), getters[i].get(value)));
                }
            } else if (aggregator != null) {
                row.setField(i, aggregator.retract(row.field(i), getters[i].get(value)));
            }
        }
    }

    private void removeRow(InternalRow value) {
        currentDeleteRow = true;
        row = new GenericRow(getters.length);
        copyNotNullColumns(row, value);
    }

    private void copyNotNullColumns(GenericRow target, InternalRow value) {
        columns.copyNotNullColumns(target, value);
    }

    @Override
    public KeyValue result() {
        RowKind kind = currentDeleteRow || !meetInsert ? RowKind.DELETE : RowKind.INSERT;
        return new KeyValue().replace(currentKey, latestSequenceNumber, kind, row);
    }
}
