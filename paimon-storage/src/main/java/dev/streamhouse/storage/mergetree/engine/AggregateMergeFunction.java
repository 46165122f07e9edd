package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.aggregate.FieldAggregator;

/**
 * The {@code aggregation} merge engine over value rows of one layout: each column folds the versions
 * of a key with its aggregate function, retracting the values of -U/-D versions. With
 * {@code aggregation.remove-record-on-delete}, a -D starts the row over (only its NOT NULL columns
 * kept) and, if it is the newest version, removes it. The result is +I (or -D for a removed row)
 * with the newest version's sequence number. As Apache Paimon 1.3 merges.
 */
final class AggregateMergeFunction implements MergeFunction {
    private final LayoutColumns columns;
    private final FieldGetter[] getters;
    private final FieldAggregator[] aggregators;
    private final boolean removeRecordOnDelete;

    private KeyValue latest;
    private GenericRow row;
    private boolean currentDeleteRow;

    AggregateMergeFunction(LayoutColumns columns, FieldAggregator[] aggregators, boolean removeRecordOnDelete) {
        this.columns = columns;
        this.getters = columns.getters;
        this.aggregators = aggregators;
        this.removeRecordOnDelete = removeRecordOnDelete;
    }

    @Override
    public void reset() {
        latest = null;
        row = new GenericRow(getters.length);
        currentDeleteRow = false;
        for (FieldAggregator a : aggregators) {
            a.reset();
        }
    }

    @Override
    public void add(KeyValue kv) {
        latest = kv;
        currentDeleteRow = removeRecordOnDelete && kv.valueKind() == RowKind.DELETE;
        InternalRow value = kv.value();
        if (currentDeleteRow) {
            row = new GenericRow(getters.length);
            columns.copyNotNullColumns(row, value);
            return;
        }
        boolean retract = kv.isRetract();
        for (int i = 0; i < getters.length; i++) {
            Object accumulator = row.field(i);
            Object field = getters[i].get(value);
            row.setField(i, retract ? aggregators[i].retract(accumulator, field) : aggregators[i].agg(accumulator, field));
        }
    }

    @Override
    public KeyValue result() {
        if (latest == null) {
            return null;
        }
        return new KeyValue().replace(latest.key(), latest.sequenceNumber(),
                currentDeleteRow ? RowKind.DELETE : RowKind.INSERT, row);
    }
}
