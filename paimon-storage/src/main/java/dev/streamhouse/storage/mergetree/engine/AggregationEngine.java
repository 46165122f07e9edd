package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.mergetree.aggregate.FieldAggregator;
import dev.streamhouse.storage.options.MergeEngineOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.RowType;

import java.util.List;
import java.util.function.Supplier;

/**
 * The {@code aggregation} merge engine's factory: it resolves and checks each column's aggregate
 * function once ({@link FieldFunctions#forAggregation}) and creates {@link AggregateMergeFunction}s
 * over all columns or a read projection (each column folds on its own, so any projection works).
 */
final class AggregationEngine implements MergeFunctionFactory {
    private static final long serialVersionUID = 1L;

    private final RowType rowType;
    private final List<String> primaryKeys;
    private final Options options;
    private final int[] layout;
    private final boolean removeRecordOnDelete;
    private final transient Supplier<FieldAggregator>[] aggregators;

    AggregationEngine(RowType rowType, List<String> primaryKeys, Options options) {
        this(rowType, primaryKeys, options, LayoutColumns.all(rowType.fieldCount()));
    }

    private AggregationEngine(RowType rowType, List<String> primaryKeys, Options options, int[] layout) {
        this.rowType = rowType;
        this.primaryKeys = List.copyOf(primaryKeys);
        this.options = options;
        this.layout = layout;
        this.removeRecordOnDelete = options.get(MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE);
        String[] functions = FieldFunctions.forAggregation(rowType, primaryKeys, options);
        this.aggregators = FieldFunctions.suppliers(rowType, functions, options);
    }

    private Object readResolve() {
        return new AggregationEngine(rowType, primaryKeys, options, layout);
    }

    @Override
    public MergeFunction create() {
        LayoutColumns columns = new LayoutColumns(rowType, layout, "aggregation");
        FieldAggregator[] fieldAggregators = new FieldAggregator[columns.size()];
        for (int i = 0; i < fieldAggregators.length; i++) {
            fieldAggregators[i] = aggregators[layout[i]].get();
        }
        return new SingleVersionAsIs(new AggregateMergeFunction(columns, fieldAggregators, removeRecordOnDelete));
    }

    @Override
    public MergeFunctionFactory forReadFields(int[] readFields) {
        return new AggregationEngine(rowType, primaryKeys, options, readFields.clone());
    }

    @Override
    public boolean retractsUpdateBefore() {
        return true;
    }
}
