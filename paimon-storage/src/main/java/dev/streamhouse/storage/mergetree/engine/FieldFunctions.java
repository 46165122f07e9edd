package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.mergetree.aggregate.FieldAggregator;
import dev.streamhouse.storage.mergetree.aggregate.FieldAggregators;
import dev.streamhouse.storage.mergetree.read.MergeReadProjection;
import dev.streamhouse.storage.options.MergeEngineOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.RowType;

import java.util.List;
import java.util.function.Supplier;

/**
 * Which aggregate function each column of a table uses, as Apache Paimon 1.3 decides it: for the
 * {@code aggregation} engine, {@code sequence.field} columns take {@code last_value}, primary-key
 * columns stay the key, and every other column takes its {@code fields.<f>.aggregate-function}, else
 * {@code fields.default-aggregate-function}, else {@code last_non_null_value}; for
 * {@code partial-update}, only the columns of a sequence group may aggregate (besides
 * {@code last_non_null_value}, which is what partial-update does anyway).
 */
final class FieldFunctions {
    static final String LAST_VALUE = "last_value";
    static final String LAST_NON_NULL_VALUE = "last_non_null_value";
    static final String PRIMARY_KEY = "primary-key";

    private FieldFunctions() {}

    /** The function of each column of an aggregation table. */
    static String[] forAggregation(RowType rowType, List<String> primaryKeys, Options options) {
        List<String> sequenceFields = MergeReadProjection.sequenceFields(options);
        String[] out = new String[rowType.fieldCount()];
        for (int i = 0; i < out.length; i++) {
            String name = rowType.field(i).name();
            if (sequenceFields.contains(name)) {
                out[i] = LAST_VALUE;
            } else if (primaryKeys.contains(name)) {
                out[i] = PRIMARY_KEY;
            } else {
                String configured = configured(options, name);
                out[i] = configured != null ? configured : LAST_NON_NULL_VALUE;
            }
        }
        return out;
    }

    /**
     * The function of each column of a partial-update table, null where the column takes the newest
     * non-null value (or, in a sequence group, the newest value) without a function.
     *
     * @throws IllegalArgumentException naming the column when it aggregates outside a sequence group
     */
    static String[] forPartialUpdate(RowType rowType, List<String> primaryKeys, SequenceGroups groups,
            Options options) {
        String[] out = new String[rowType.fieldCount()];
        for (int i = 0; i < out.length; i++) {
            String name = rowType.field(i).name();
            if (groups.isSequenceField(name) || primaryKeys.contains(name)) {
                continue;
            }
            String configured = configured(options, name);
            if (configured != null && !configured.equals(LAST_NON_NULL_VALUE) && !groups.isMember(i)) {
                throw new IllegalArgumentException("Column '" + name + "' aggregates with '" + configured
                        + "' (option '" + aggregateFunctionKey(name) + "' or '"
                        + MergeEngineOptions.FIELDS_DEFAULT_AGGREGATE_FUNCTION.key() + "'), and partial-update "
                        + "aggregates only columns of a sequence group: add it to a 'fields.<sequence "
                        + "column>.sequence-group'");
            }
            out[i] = configured;
        }
        return out;
    }

    private static String configured(Options options, String column) {
        String own = options.get(aggregateFunctionKey(column));
        return own != null ? own.trim() : trimmed(options.get(MergeEngineOptions.FIELDS_DEFAULT_AGGREGATE_FUNCTION));
    }

    private static String trimmed(String s) {
        return s == null ? null : s.trim();
    }

    /** Whether any column has an aggregate function option, or there is a default one. */
    static boolean definesAggregateFunction(Options options) {
        if (options.get(MergeEngineOptions.FIELDS_DEFAULT_AGGREGATE_FUNCTION) != null) {
            return true;
        }
        for (String key : options.toMap().keySet()) {
            if (key.startsWith("fields.") && key.endsWith(".aggregate-function")) {
                return true;
            }
        }
        return false;
    }

    static String aggregateFunctionKey(String column) {
        return "fields." + column + ".aggregate-function";
    }

    /**
     * Validates each named function for its column (type, options) and returns a supplier per column
     * (null where {@code functions} has none) that creates a fresh aggregator per merge function.
     *
     * @throws IllegalArgumentException naming the column, the function and the reason
     */
    static Supplier<FieldAggregator>[] suppliers(RowType rowType, String[] functions, Options options) {
        @SuppressWarnings("unchecked")
        Supplier<FieldAggregator>[] out = new Supplier[functions.length];
        for (int i = 0; i < functions.length; i++) {
            if (functions[i] == null) {
                continue;
            }
            String name = rowType.field(i).name();
            String function = functions[i];
            var type = rowType.typeAt(i);
            FieldAggregators.validate(name, type, function, options);
            out[i] = () -> FieldAggregators.create(name, type, function, options);
        }
        return out;
    }
}
