package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericMap;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataType;

import java.util.LinkedHashMap;
import java.util.Map;

/** Test shorthands: aggregators of a column {@code c} and internal values. */
final class Aggregators {
    private Aggregators() {}

    static FieldAggregator of(String function, DataType type, String... options) {
        return FieldAggregators.create("c", type, function, Options.of(options));
    }

    /** Folds {@code inputs} with {@code agg}, starting from a null accumulator. */
    static Object fold(FieldAggregator aggregator, Object... inputs) {
        Object acc = null;
        for (Object input : inputs) {
            acc = aggregator.agg(acc, input);
        }
        return acc;
    }

    static BinaryString str(String s) {
        return BinaryString.fromString(s);
    }

    static GenericArray array(Object... elements) {
        return new GenericArray(elements);
    }

    static GenericRow row(Object... fields) {
        return GenericRow.of(fields);
    }

    /** A map of alternating keys and values, in that order. */
    static GenericMap map(Object... keysAndValues) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new GenericMap(m);
    }
}
