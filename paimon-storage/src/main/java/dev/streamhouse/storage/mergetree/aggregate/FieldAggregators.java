package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.options.InvalidOptionsException;
import dev.streamhouse.storage.options.MergeEngineOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataType;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * The aggregate functions of the {@code aggregation} merge engine, by the identifiers Apache Paimon
 * 1.3.1 registers, and the one place that builds them: it checks the column type, reads the function's
 * {@code fields.<column>.*} options and applies {@code fields.<column>.ignore-retract}.
 *
 * <p>Paimon checks a column's type only when it first builds the merge function (a write, a read that
 * merges, a compaction); here {@link #validate} lets CREATE TABLE refuse the same definitions up front.
 * Paimon accepts {@code max} and {@code min} on every type but fails when two non-null values of a type
 * without order (BOOLEAN, nested types) meet; so do these.
 */
public final class FieldAggregators {

    private static final Map<String, Function<ColumnFunction, FieldAggregator>> FACTORIES = factories();

    /** Every identifier, in the order of Paimon's documentation; {@code primary-key} is internal. */
    public static final List<String> IDENTIFIERS = List.copyOf(FACTORIES.keySet());

    private FieldAggregators() {}

    private static Map<String, Function<ColumnFunction, FieldAggregator>> factories() {
        Map<String, Function<ColumnFunction, FieldAggregator>> f = new LinkedHashMap<>();
        f.put("sum", SumAggregator::create);
        f.put("product", ProductAggregator::create);
        f.put("max", MaxAggregator::new);
        f.put("min", MinAggregator::new);
        f.put("last_value", function -> new LastValueAggregator());
        f.put("last_non_null_value", function -> new LastNonNullValueAggregator());
        f.put("first_value", FirstValueAggregator::new);
        f.put("first_non_null_value", FirstNonNullValueAggregator::new);
        // The legacy spelling, still registered by Paimon.
        f.put("first_not_null_value", FirstNonNullValueAggregator::new);
        f.put("listagg", ListaggAggregator::create);
        f.put("bool_and", BoolAndAggregator::create);
        f.put("bool_or", BoolOrAggregator::create);
        f.put("collect", CollectAggregator::create);
        f.put("merge_map", MergeMapAggregator::create);
        f.put("nested_update", NestedUpdateAggregator::create);
        f.put("rbm32", RoaringBitmap32Aggregator::create);
        f.put("rbm64", RoaringBitmap64Aggregator::create);
        f.put("hll_sketch", HllSketchAggregator::create);
        f.put("theta_sketch", ThetaSketchAggregator::create);
        f.put("primary-key", function -> new PrimaryKeyAggregator());
        return f;
    }

    /** Whether {@code identifier} names a function (case-sensitive, as in Paimon). */
    public static boolean isKnown(String identifier) {
        return FACTORIES.containsKey(identifier);
    }

    /**
     * A new aggregator of {@code function} for the column {@code column} of type {@code type}, with
     * its parameters from {@code tableOptions} ({@code fields.<column>.distinct},
     * {@code .list-agg-delimiter}, {@code .nested-key}, {@code .count-limit}); when
     * {@code fields.<column>.ignore-retract} is 'true' its {@code retract} keeps the accumulator.
     *
     * @throws InvalidOptionsException for an unknown identifier, a column type the function does not
     *     accept, an invalid parameter, or {@code ignore-retract} together with
     *     {@code aggregation.remove-record-on-delete}
     * @throws UnsupportedOperationException for a definition Paimon accepts that this store cannot
     *     aggregate yet (collections of VARIANT, maps or nested keys of nested types)
     */
    public static FieldAggregator create(String column, DataType type, String function, Options tableOptions) {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(tableOptions, "tableOptions");
        Function<ColumnFunction, FieldAggregator> factory = function == null ? null : FACTORIES.get(function);
        if (factory == null) {
            throw new InvalidOptionsException(List.of("Cannot aggregate column '" + column
                    + "': there is no aggregate function '" + function + "'; the functions are " + IDENTIFIERS));
        }
        ColumnFunction bound = new ColumnFunction(function, column, type, tableOptions);
        boolean ignoreRetract = bound.option(MergeEngineOptions.FIELD_IGNORE_RETRACT, Boolean.class);
        if (ignoreRetract && tableOptions.get(MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE)) {
            throw new InvalidOptionsException(List.of("options '"
                    + MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE.key() + "' and '"
                    + MergeEngineOptions.FIELD_IGNORE_RETRACT.keyFor(column) + "' contradict each other (a -D "
                    + "removes the row, or its retraction is ignored); set at most one of them to 'true'"));
        }
        FieldAggregator aggregator = factory.apply(bound);
        return ignoreRetract ? new IgnoreRetractAggregator(aggregator) : aggregator;
    }

    /**
     * Checks what {@link #create} checks, e.g. when a table is created, and discards the aggregator.
     *
     * @throws InvalidOptionsException as {@link #create} does
     * @throws UnsupportedOperationException as {@link #create} does
     */
    public static void validate(String column, DataType type, String function, Options tableOptions) {
        create(column, type, function, tableOptions);
    }
}
