package dev.streamhouse.e2e.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import org.apache.paimon.mergetree.compact.FirstRowMergeFunction;
import org.apache.paimon.mergetree.compact.MergeFunctionFactory;
import org.apache.paimon.mergetree.compact.PartialUpdateMergeFunction;
import org.apache.paimon.mergetree.compact.ReducerMergeFunctionWrapper;
import org.apache.paimon.mergetree.compact.aggregate.AggregateMergeFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Our merge functions against Apache Paimon 1.3.1's own (behind the wrapper Paimon merges through,
 * which passes a lone version through unmerged), version by version: for each engine
 * configuration, thousands of random version sequences of one key (every row kind, NULLs, equal and
 * out-of-order sequence values) are merged by both, and the results (row kind, sequence number,
 * every column) or the refusals must be the same. The seed is in every failure message.
 *
 * <p>Columns: {@code k INT NOT NULL} (the key), {@code a INT}, {@code b STRING}, {@code s1 INT},
 * {@code s2 INT}, {@code c BIGINT}, {@code d INT}.
 */
class MergeFunctionDifferentialTest {
    private static final String[] NAMES = {"k", "a", "b", "s1", "s2", "c", "d"};
    private static final RowType OURS = new RowType(List.of(
            new dev.streamhouse.storage.types.DataField(0, "k", DataTypes.INT().notNull()),
            new dev.streamhouse.storage.types.DataField(1, "a", DataTypes.INT()),
            new dev.streamhouse.storage.types.DataField(2, "b", DataTypes.STRING()),
            new dev.streamhouse.storage.types.DataField(3, "s1", DataTypes.INT()),
            new dev.streamhouse.storage.types.DataField(4, "s2", DataTypes.INT()),
            new dev.streamhouse.storage.types.DataField(5, "c", DataTypes.BIGINT()),
            new dev.streamhouse.storage.types.DataField(6, "d", DataTypes.INT())));
    private static final org.apache.paimon.types.RowType PAIMONS = org.apache.paimon.types.RowType.of(
            new org.apache.paimon.types.DataType[] {
                org.apache.paimon.types.DataTypes.INT().notNull(), org.apache.paimon.types.DataTypes.INT(),
                org.apache.paimon.types.DataTypes.STRING(), org.apache.paimon.types.DataTypes.INT(),
                org.apache.paimon.types.DataTypes.INT(), org.apache.paimon.types.DataTypes.BIGINT(),
                org.apache.paimon.types.DataTypes.INT()},
            NAMES);

    static Stream<Arguments> configurations() {
        return Stream.of(
                Arguments.of("partial-update", new String[] {"merge-engine", "partial-update"}),
                Arguments.of("partial-update ignore-delete",
                        new String[] {"merge-engine", "partial-update", "ignore-delete", "true"}),
                Arguments.of("partial-update remove-record-on-delete",
                        new String[] {"merge-engine", "partial-update", "partial-update.remove-record-on-delete", "true"}),
                Arguments.of("partial-update two sequence groups", new String[] {"merge-engine", "partial-update",
                        "fields.s1.sequence-group", "a,b", "fields.s2.sequence-group", "c"}),
                Arguments.of("partial-update group ordered by two columns", new String[] {"merge-engine",
                        "partial-update", "fields.s1,s2.sequence-group", "a,b,c"}),
                Arguments.of("partial-update group removing the row", new String[] {"merge-engine", "partial-update",
                        "fields.s1.sequence-group", "a,b", "fields.s2.sequence-group", "c",
                        "partial-update.remove-record-on-sequence-group", "s1"}),
                Arguments.of("partial-update group with sum and last_value", new String[] {"merge-engine",
                        "partial-update", "fields.s1.sequence-group", "a,d", "fields.d.aggregate-function", "sum",
                        "fields.s2.sequence-group", "b,c", "fields.c.aggregate-function", "last_value"}),
                Arguments.of("partial-update default aggregate function", new String[] {"merge-engine",
                        "partial-update", "fields.s1.sequence-group", "a,b,c,d,s2", "fields.default-aggregate-function",
                        "max", "fields.b.ignore-retract", "true"}),
                Arguments.of("aggregation defaults", new String[] {"merge-engine", "aggregation"}),
                Arguments.of("aggregation sum, max, last_value, product, min", new String[] {"merge-engine",
                        "aggregation", "fields.a.aggregate-function", "sum", "fields.c.aggregate-function", "max",
                        "fields.c.ignore-retract", "true", "fields.b.aggregate-function", "last_value",
                        "fields.d.aggregate-function", "product", "fields.s1.aggregate-function", "min",
                        "fields.s1.ignore-retract", "true", "fields.s2.aggregate-function", "first_value",
                        "fields.s2.ignore-retract", "true"}),
                Arguments.of("aggregation remove-record-on-delete", new String[] {"merge-engine", "aggregation",
                        "fields.a.aggregate-function", "sum", "aggregation.remove-record-on-delete", "true"}),
                Arguments.of("aggregation with a sequence field", new String[] {"merge-engine", "aggregation",
                        "sequence.field", "s2", "fields.a.aggregate-function", "sum",
                        "fields.b.aggregate-function", "listagg", "fields.b.list-agg-delimiter", "|",
                        "fields.b.ignore-retract", "true"}),
                Arguments.of("first-row ignore-delete",
                        new String[] {"merge-engine", "first-row", "ignore-delete", "true"}),
                Arguments.of("first-row", new String[] {"merge-engine", "first-row"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configurations")
    void sameResultsAsApachePaimon(String name, String[] options) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < options.length; i += 2) {
            map.put(options[i], options[i + 1]);
        }
        MergeFunction ours = MergeEngines.create(OURS, List.of("k"), new Options(map)).create();
        // Paimon merges through this wrapper everywhere (write buffer, compaction, merge-on-read).
        ReducerMergeFunctionWrapper theirs = new ReducerMergeFunctionWrapper(paimonFactory(map).create());
        long seed = name.hashCode();
        Random random = new Random(seed);
        for (int round = 0; round < 5000; round++) {
            int versions = 1 + random.nextInt(6);
            List<Object[]> input = new ArrayList<>();
            List<RowKind> kinds = new ArrayList<>();
            for (int v = 0; v < versions; v++) {
                kinds.add(RowKind.values()[random.nextInt(4)]);
                input.add(new Object[] {1, maybe(random, random.nextInt(10)), maybe(random, "b" + random.nextInt(5)),
                        maybe(random, random.nextInt(4)), maybe(random, random.nextInt(4)),
                        maybe(random, (long) random.nextInt(10)), maybe(random, random.nextInt(10))});
            }
            String expected = merge(theirs, input, kinds);
            String actual = mergeOurs(ours, input, kinds);
            assertThat(actual).as("%s (seed %s, round %s): %s", name, seed, round, describe(input, kinds))
                    .isEqualTo(expected);
        }
    }

    static Stream<Arguments> refusedConfigurations() {
        return Stream.of(
                Arguments.of("partial-update aggregating outside a group", new String[] {"merge-engine",
                        "partial-update", "fields.a.aggregate-function", "sum"}),
                Arguments.of("partial-update default function outside a group", new String[] {"merge-engine",
                        "partial-update", "fields.s1.sequence-group", "a", "fields.default-aggregate-function", "sum"}),
                Arguments.of("partial-update remove-record-on-delete with groups", new String[] {"merge-engine",
                        "partial-update", "fields.s1.sequence-group", "a", "partial-update.remove-record-on-delete",
                        "true"}),
                Arguments.of("partial-update ignore-delete with remove-record-on-delete", new String[] {
                        "merge-engine", "partial-update", "ignore-delete", "true",
                        "partial-update.remove-record-on-delete", "true"}),
                Arguments.of("partial-update removing on a column that orders no group", new String[] {
                        "merge-engine", "partial-update", "fields.s1.sequence-group", "a",
                        "partial-update.remove-record-on-sequence-group", "s2"}),
                Arguments.of("partial-update column in two groups", new String[] {"merge-engine", "partial-update",
                        "fields.s1.sequence-group", "a", "fields.s2.sequence-group", "a"}),
                Arguments.of("aggregation unknown function", new String[] {"merge-engine", "aggregation",
                        "fields.a.aggregate-function", "summ"}),
                Arguments.of("aggregation sum of a string", new String[] {"merge-engine", "aggregation",
                        "fields.b.aggregate-function", "sum"}),
                Arguments.of("aggregation bool_and of an int", new String[] {"merge-engine", "aggregation",
                        "fields.a.aggregate-function", "bool_and"}),
                Arguments.of("aggregation remove-record-on-delete with ignore-retract", new String[] {
                        "merge-engine", "aggregation", "aggregation.remove-record-on-delete", "true",
                        "fields.a.ignore-retract", "true"}));
    }

    /** Configurations Apache Paimon refuses when it builds the merge function are refused here too. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedConfigurations")
    void sameRefusalsAsApachePaimon(String name, String[] options) {
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < options.length; i += 2) {
            map.put(options[i], options[i + 1]);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> paimonFactory(map).create())
                .as("Apache Paimon refuses " + name).isInstanceOf(RuntimeException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> MergeEngines.create(OURS, List.of("k"), new Options(map)).create())
                .as("we refuse " + name).isInstanceOf(IllegalArgumentException.class);
    }

    private static MergeFunctionFactory<org.apache.paimon.KeyValue> paimonFactory(Map<String, String> map) {
        org.apache.paimon.options.Options options = org.apache.paimon.options.Options.fromMap(map);
        switch (map.get("merge-engine")) {
            case "partial-update":
                return PartialUpdateMergeFunction.factory(options, PAIMONS, List.of("k"));
            case "first-row":
                return FirstRowMergeFunction.factory(options);
            case "aggregation":
                return AggregateMergeFunction.factory(options, PAIMONS.getFieldNames(), PAIMONS.getFieldTypes(),
                        List.of("k"));
            default:
                throw new IllegalArgumentException(map.toString());
        }
    }

    private static <T> T maybe(Random random, T value) {
        return random.nextInt(4) == 0 ? null : value;
    }

    private static String describe(List<Object[]> input, List<RowKind> kinds) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < input.size(); i++) {
            out.append(kinds.get(i).shortString()).append(java.util.Arrays.toString(input.get(i))).append(' ');
        }
        return out.toString();
    }

    private static String merge(ReducerMergeFunctionWrapper f,
            List<Object[]> input, List<RowKind> kinds) {
        try {
            f.reset();
            for (int i = 0; i < input.size(); i++) {
                Object[] v = input.get(i);
                org.apache.paimon.data.GenericRow value = new org.apache.paimon.data.GenericRow(v.length);
                for (int p = 0; p < v.length; p++) {
                    value.setField(p, v[p] instanceof String ? org.apache.paimon.data.BinaryString.fromString((String) v[p])
                            : v[p]);
                }
                f.add(new org.apache.paimon.KeyValue().replace(org.apache.paimon.data.GenericRow.of(1), i,
                        org.apache.paimon.types.RowKind.fromByteValue(kinds.get(i).toByteValue()), value));
            }
            org.apache.paimon.KeyValue result = f.getResult();
            if (result == null) {
                return "null";
            }
            org.apache.paimon.data.InternalRow v = result.value();
            return render(result.valueKind().shortString(), result.sequenceNumber(), p -> v.isNullAt(p) ? null
                    : p == 2 ? v.getString(p).toString() : p == 5 ? (Object) v.getLong(p) : (Object) v.getInt(p));
        } catch (RuntimeException e) {
            return "refused";
        }
    }

    private static String mergeOurs(MergeFunction f, List<Object[]> input, List<RowKind> kinds) {
        try {
            f.reset();
            for (int i = 0; i < input.size(); i++) {
                Object[] v = input.get(i).clone();
                if (v[2] != null) {
                    v[2] = BinaryString.fromString((String) v[2]);
                }
                f.add(new KeyValue().replace(GenericRow.of(1), i, kinds.get(i), GenericRow.of(v)));
            }
            KeyValue result = f.result();
            if (result == null) {
                return "null";
            }
            dev.streamhouse.storage.data.InternalRow v = result.value();
            return render(result.valueKind().shortString(), result.sequenceNumber(), p -> v.isNullAt(p) ? null
                    : p == 2 ? v.stringAt(p).toString() : p == 5 ? (Object) v.longAt(p) : (Object) v.intAt(p));
        } catch (RuntimeException e) {
            return "refused";
        }
    }

    /** "kind@sequence,column values..." of a merge result, one implementation's row read by {@code column}. */
    private static String render(String kind, long sequence, java.util.function.IntFunction<Object> column) {
        StringBuilder out = new StringBuilder(kind).append('@').append(sequence);
        for (int p = 0; p < NAMES.length; p++) {
            out.append(',').append(column.apply(p));
        }
        return out.toString();
    }
}
