package dev.streamhouse.e2e.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.e2e.oracle.OurRows;
import dev.streamhouse.e2e.oracle.TypeStrings;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.mergetree.aggregate.FieldAggregator;
import dev.streamhouse.storage.mergetree.aggregate.FieldAggregators;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.apache.paimon.CoreOptions;
import org.apache.paimon.mergetree.compact.aggregate.factory.FieldAggregatorFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every aggregate function, for each type it accepts (and some it refuses), fed the same seeded random
 * sequences of agg, aggReversed, retract and reset, with nulls, by Apache Paimon 1.3.1's own
 * {@code FieldAggregator} (made by {@code FieldAggregatorFactory.create}) and by ours
 * ({@link FieldAggregators#create}); Paimon gets nested inputs in its binary format, as it reads them
 * from data files. After each step both results must be the same value in the same
 * order, bitmaps and sketches the same bytes; where Paimon throws, ours must throw too. Each side keeps
 * its own accumulator. Failures name the case, the seed and the step.
 */
class FieldAggregatorDifferentialTest {
    private static final int SEEDS = 25;
    private static final int STEPS = 40;

    private static final String ROWS = "ARRAY<ROW<k INT, v STRING, d DOUBLE>>";

    /** How a case's inputs are made. */
    enum Inputs {
        VALUES, RBM32, RBM64, HLL, THETA
    }

    /**
     * One function on one column type with options ({@code fields.c.*}); {@code unordered}: the result's
     * top-level order is Paimon's identity-hash order of byte arrays (random), so it is compared sorted.
     */
    record Case(String function, String type, Inputs inputs, boolean unordered, Map<String, String> options) {
        @Override
        public String toString() {
            return function + " " + type + (options.isEmpty() ? "" : " " + options);
        }
    }

    static Stream<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (String t : List.of("TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL(5, 2)",
                "DECIMAL(18, 0)", "DECIMAL(20, 3)", "DECIMAL(38, 10)")) {
            cases.add(values("sum", t));
            cases.add(values("product", t));
        }
        for (String t : List.of("TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL(6, 2)",
                "DECIMAL(30, 5)", "DATE", "TIME", "TIMESTAMP(3)", "TIMESTAMP(9)", "TIMESTAMP_LTZ(6)", "CHAR(3)",
                "STRING", "BINARY(2)", "BYTES", "BOOLEAN", "ARRAY<INT>", "ROW<a INT>")) {
            cases.add(values("max", t));
            cases.add(values("min", t));
        }
        for (String f : List.of("last_value", "last_non_null_value", "first_value", "first_non_null_value",
                "first_not_null_value", "primary-key")) {
            for (String t : List.of("INT", "STRING", "DECIMAL(20, 2)", "TIMESTAMP(9)", "BYTES", "BOOLEAN", ROWS,
                    "MAP<STRING, INT>")) {
                cases.add(values(f, t));
            }
        }
        cases.add(values("listagg", "STRING"));
        cases.add(values("listagg", "VARCHAR(2)", "fields.c.list-agg-delimiter", " | "));
        cases.add(values("listagg", "STRING", "fields.c.list-agg-delimiter", ""));
        for (String f : List.of("bool_and", "bool_or")) {
            cases.add(values(f, "BOOLEAN"));
            cases.add(values(f, "BOOLEAN", "fields.c.ignore-retract", "true"));
        }
        for (String distinct : List.of("false", "true")) {
            for (String element : List.of("INT", "BIGINT", "STRING", "DOUBLE", "DECIMAL(20, 2)", "DECIMAL(4, 1)",
                    "TIMESTAMP(9)", "DATE", "BOOLEAN", "ROW<a INT, b STRING>", "ARRAY<INT>", "MAP<STRING, INT>")) {
                cases.add(values("collect", "ARRAY<" + element + ">", "fields.c.distinct", distinct));
            }
            cases.add(new Case("collect", "ARRAY<BYTES>", Inputs.VALUES, true, Map.of("fields.c.distinct", distinct)));
            cases.add(values("collect", "ARRAY<INT>", "fields.c.distinct", distinct, "fields.c.ignore-retract", "true"));
        }
        for (String map : List.of("MAP<STRING, INT>", "MAP<INT, STRING>", "MAP<DOUBLE, INT>", "MAP<DECIMAL(20, 2), INT>",
                "MAP<TIMESTAMP(3), BOOLEAN>", "MAP<BOOLEAN, STRING>", "MAP<STRING, ARRAY<INT>>",
                "MAP<INT, ROW<x STRING>>")) {
            cases.add(values("merge_map", map));
        }
        cases.add(new Case("merge_map", "MAP<BYTES, INT>", Inputs.VALUES, true, Map.of()));
        cases.add(values("nested_update", ROWS));
        cases.add(values("nested_update", ROWS, "fields.c.nested-key", "k"));
        cases.add(values("nested_update", ROWS, "fields.c.nested-key", "v, k"));
        cases.add(values("nested_update", ROWS, "fields.c.count-limit", "3"));
        cases.add(values("nested_update", ROWS, "fields.c.nested-key", "k", "fields.c.count-limit", "4"));
        cases.add(values("nested_update", "ARRAY<ROW<k DECIMAL(20, 2), t TIMESTAMP(9), s STRING, b BYTES>>",
                "fields.c.nested-key", "k,t,s,b"));
        cases.add(values("nested_update", ROWS, "fields.c.nested-key", "k", "fields.c.ignore-retract", "true"));
        for (String t : List.of("BYTES", "VARBINARY(1000000)")) {
            cases.add(new Case("rbm32", t, Inputs.RBM32, false, Map.of()));
            cases.add(new Case("rbm64", t, Inputs.RBM64, false, Map.of()));
            cases.add(new Case("hll_sketch", t, Inputs.HLL, false, Map.of()));
            cases.add(new Case("theta_sketch", t, Inputs.THETA, false, Map.of()));
        }
        cases.add(values("sum", "INT", "fields.c.ignore-retract", "true"));
        cases.add(values("max", "INT", "fields.c.ignore-retract", "true"));
        cases.add(values("first_value", "INT", "fields.c.ignore-retract", "true"));
        cases.add(values("last_value", "STRING", "fields.c.ignore-retract", "true"));
        return cases.stream();
    }

    /** Definitions both must refuse when the aggregator is made. */
    static Stream<Case> refused() {
        return Stream.of(
                values("sum", "STRING"), values("product", "BOOLEAN"), values("sum", "DATE"),
                values("listagg", "CHAR(3)"), values("listagg", "INT"), values("bool_and", "INT"),
                values("bool_or", "STRING"), values("collect", "MULTISET<INT>"), values("collect", "INT"),
                values("merge_map", "MULTISET<INT>"), values("merge_map", "ARRAY<INT>"),
                values("nested_update", "ARRAY<INT>"), values("nested_update", "ROW<a INT>"),
                values("rbm32", "BINARY(4)"), values("rbm64", "STRING"), values("hll_sketch", "BINARY(8)"),
                values("theta_sketch", "BIGINT"), values("average", "INT"), values("SUM", "INT"),
                values("nested_update", ROWS, "fields.c.nested-key", "missing"),
                values("sum", "INT", "fields.c.ignore-retract", "true", "aggregation.remove-record-on-delete", "true"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void refusesWhatPaimonRefuses(Case c) {
        org.apache.paimon.types.DataType paimonType = TypeStrings.parse(c.type());
        RuntimeException paimon = thrown(() -> paimon(c, paimonType));
        RuntimeException ours = thrown(() -> ours(c, OurRows.toOurType(paimonType)));
        assertThat(paimon).as("Paimon refuses %s", c).isNotNull();
        assertThat(ours).as("we refuse %s (Paimon: %s)", c, paimon.getMessage()).isNotNull();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void sameResultsAsPaimon(Case c) {
        for (int i = 0; i < SEEDS; i++) {
            long seed = 31L * c.toString().hashCode() + i;
            run(c, seed);
        }
    }

    private static void run(Case c, long seed) {
        Random random = new Random(seed);
        RandomInputs inputs = new RandomInputs(random);
        org.apache.paimon.types.DataType paimonType = TypeStrings.parse(c.type());
        DataType ourType = OurRows.toOurType(paimonType);
        org.apache.paimon.mergetree.compact.aggregate.FieldAggregator paimon = paimon(c, paimonType);
        FieldAggregator ours = ours(c, ourType);

        Object paimonAcc = null;
        Object ourAcc = null;
        List<Object> history = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            int op = random.nextInt(20);
            if (op == 0) {
                paimon.reset();
                ours.reset();
                paimonAcc = null;
                ourAcc = null;
                continue;
            }
            Object stored;
            if (op >= 12 && !history.isEmpty() && random.nextInt(3) > 0) {
                stored = history.get(random.nextInt(history.size()));
            } else {
                stored = newInput(c, inputs, ourType);
                history.add(stored);
            }
            // Fresh objects per use on both sides, as each read of a data file gives.
            Object[] input = {InternalRowUtils.copyValue(stored, ourType),
                    AggregateValues.toPaimonAsRead(stored, ourType, paimonType)};
            String what = String.format("%s, seed %d, step %d, %s of %s into %s", c, seed, step,
                    op < 9 ? "agg" : op < 12 ? "aggReversed" : "retract",
                    AggregateValues.ofOurs(input[0], ourType), AggregateValues.ofOurs(ourAcc, ourType));
            Object pAcc = paimonAcc;
            Object oAcc = ourAcc;
            Outcome expected = outcome(() -> op < 9 ? paimon.agg(pAcc, input[1])
                    : op < 12 ? paimon.aggReversed(pAcc, input[1]) : paimon.retract(pAcc, input[1]));
            Outcome actual = outcome(() -> op < 9 ? ours.agg(oAcc, input[0])
                    : op < 12 ? ours.aggReversed(oAcc, input[0]) : ours.retract(oAcc, input[0]));
            if (expected.failure != null) {
                assertThat(actual.failure).as("%s: Paimon threw %s", what, expected.failure).isNotNull();
                continue;
            }
            assertThat(actual.failure).as("%s: Paimon returned %s", what, expected.value).isNull();
            Object paimonForm = AggregateValues.ofPaimon(expected.value, paimonType);
            Object ourForm = AggregateValues.ofOurs(actual.value, ourType);
            if (c.unordered()) {
                paimonForm = sorted(paimonForm);
                ourForm = sorted(ourForm);
            }
            assertThat(ourForm).as(what).isEqualTo(paimonForm);
            paimonAcc = expected.value;
            ourAcc = actual.value;
        }
    }

    private static Object newInput(Case c, RandomInputs inputs, DataType ourType) {
        if (c.inputs() != Inputs.VALUES && inputs.oneIn(8)) {
            return null;
        }
        switch (c.inputs()) {
            case RBM32:
                return inputs.rbm32();
            case RBM64:
                return inputs.rbm64();
            case HLL:
                return inputs.hll();
            case THETA:
                return inputs.theta();
            default:
                return inputs.value(ourType);
        }
    }

    private static org.apache.paimon.mergetree.compact.aggregate.FieldAggregator paimon(
            Case c, org.apache.paimon.types.DataType type) {
        return FieldAggregatorFactory.create(type, "c", c.function(), new CoreOptions(c.options()));
    }

    private static FieldAggregator ours(Case c, DataType type) {
        return FieldAggregators.create("c", type, c.function(), new Options(c.options()));
    }

    private static Object sorted(Object form) {
        if (!(form instanceof List)) {
            return form;
        }
        List<Object> out = new ArrayList<>((List<?>) form);
        out.sort(Comparator.comparing(String::valueOf));
        return out;
    }

    private static Case values(String function, String type, String... options) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < options.length; i += 2) {
            map.put(options[i], options[i + 1]);
        }
        return new Case(function, type, Inputs.VALUES, false, map);
    }

    private record Outcome(Object value, RuntimeException failure) {}

    private static Outcome outcome(Supplier<Object> call) {
        try {
            return new Outcome(call.get(), null);
        } catch (RuntimeException e) {
            return new Outcome(null, e);
        }
    }

    private static RuntimeException thrown(Runnable call) {
        try {
            call.run();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }
}
