package dev.streamhouse.storage.mergetree.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The merge of tables Apache Paimon compacts with lookups: above level 0 only the version on the
 * smallest level counts, merged with the versions of level 0 and those not read from a file, in the
 * order they were added. Each engine is checked against the same engine without lookups, which merges
 * every version.
 */
class LookupMergeTest {
    /** (k INT NOT NULL, a BIGINT, b STRING, s INT), primary key k. */
    private static final RowType ROW = RowType.of(DataTypes.INT().notNull(), DataTypes.BIGINT(), DataTypes.STRING(),
            DataTypes.INT());
    private static final String[] AGGREGATION = {"merge-engine", "aggregation", "fields.f1.aggregate-function", "sum",
            "fields.f2.aggregate-function", "last_non_null_value"};

    private static MergeFunctionFactory engine(String... options) {
        return MergeEngines.create(ROW, List.of("f0"), Options.of(options));
    }

    private static MergeFunctionFactory withLookup(String... options) {
        String[] all = Arrays.copyOf(options, options.length + 2);
        all[options.length] = "changelog-producer";
        all[options.length + 1] = "lookup";
        return engine(all);
    }

    private static KeyValue kv(int level, long seq, RowKind kind, Object... values) {
        Object[] fields = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            fields[i] = values[i] instanceof String text ? BinaryString.fromString(text) : values[i];
        }
        return new KeyValue().replace(GenericRow.of(1), seq, kind, GenericRow.of(fields)).setLevel(level);
    }

    private static KeyValue merge(MergeFunctionFactory factory, KeyValue... versions) {
        MergeFunction f = factory.create();
        f.reset();
        for (KeyValue v : versions) {
            f.add(v);
        }
        return f.result();
    }

    /** The value's fields as Java values (strings for STRING), kind first. */
    private static List<Object> rendered(KeyValue kv, RowType valueType) {
        List<Object> out = new ArrayList<>();
        out.add(kv.valueKind());
        InternalRow row = kv.value();
        for (int i = 0; i < valueType.fieldCount(); i++) {
            out.add(row.isNullAt(i) ? null : InternalRowUtils.fieldGetter(valueType.typeAt(i), i).get(row).toString());
        }
        return out;
    }

    /** Oldest first, as merges add them: level 3, then level 1, then level 0, then the write buffer. */
    private static KeyValue[] acrossLevels(Object[] l3, Object[] l1, Object[] l0, Object[] buffered) {
        return new KeyValue[] {kv(3, 1, RowKind.INSERT, l3), kv(1, 2, RowKind.INSERT, l1),
                kv(0, 3, RowKind.UPDATE_AFTER, l0), kv(KeyValue.UNKNOWN_LEVEL, 4, RowKind.UPDATE_AFTER, buffered)};
    }

    @Test
    void aggregationLeavesOutTheVersionsBelowTheSmallestLevelAboveZero() {
        KeyValue[] versions = acrossLevels(new Object[] {1, 100L, "deep", 0}, new Object[] {1, 10L, "one", 0},
                new Object[] {1, 1L, null, 0}, new Object[] {1, 2L, null, 0});
        assertThat(rendered(merge(withLookup(AGGREGATION), versions), ROW))
                .as("level 1 already holds level 3's sum: 10 + 1 + 2")
                .containsExactly(RowKind.INSERT, "1", "13", "one", "0");
        assertThat(rendered(merge(engine(AGGREGATION), versions), ROW)).as("without lookups every version counts")
                .containsExactly(RowKind.INSERT, "1", "113", "one", "0");
    }

    @Test
    void partialUpdateTakesNoColumnFromTheDeeperVersions() {
        String[] partialUpdate = {"merge-engine", "partial-update"};
        KeyValue[] versions = acrossLevels(new Object[] {1, 100L, "deep", 7}, new Object[] {1, 10L, null, null},
                new Object[] {1, null, "zero", null}, new Object[] {1, null, null, null});
        assertThat(rendered(merge(withLookup(partialUpdate), versions), ROW))
                .containsExactly(RowKind.INSERT, "1", "10", "zero", null);
        assertThat(rendered(merge(engine(partialUpdate), versions), ROW))
                .containsExactly(RowKind.INSERT, "1", "10", "zero", "7");
    }

    @Test
    void deduplicateTakesTheLastOfTheVersionsItKeeps() {
        // Only levels above 0: level 1 wins even though level 3's version was added after it.
        KeyValue level1 = kv(1, 5, RowKind.INSERT, 1, 10L, "one", 0);
        KeyValue level3 = kv(3, 6, RowKind.INSERT, 1, 30L, "three", 0);
        assertThat(merge(withLookup(), level1, level3)).isSameAs(level1);
        assertThat(merge(engine(), level1, level3)).isSameAs(level3);

        // Two versions on the smallest level (no table has them): the first one added counts.
        KeyValue first = kv(2, 1, RowKind.INSERT, 1, 1L, "first", 0);
        KeyValue second = kv(2, 2, RowKind.INSERT, 1, 2L, "second", 0);
        KeyValue zero = kv(0, 3, RowKind.DELETE, 1, 3L, "zero", 0);
        MergeFunctionFactory ignoreDelete = withLookup("ignore-delete", "true");
        assertThat(merge(ignoreDelete, first, second, zero)).isSameAs(first);
        assertThat(merge(engine("ignore-delete", "true"), first, second, zero)).isSameAs(second);

        KeyValue[] versions = acrossLevels(new Object[] {1, 1L, "l3", 0}, new Object[] {1, 2L, "l1", 0},
                new Object[] {1, 3L, "l0", 0}, new Object[] {1, 4L, "buffered", 0});
        assertThat(merge(withLookup(), versions)).isSameAs(versions[3]);
    }

    @Test
    void aLoneVersionPassesThroughAndTheKeptOnesAreMergedByTheEngine() {
        KeyValue lone = kv(3, 1, RowKind.UPDATE_BEFORE, 1, 5L, "x", 0);
        assertThat(merge(withLookup(AGGREGATION), lone)).isSameAs(lone);
        assertThat(merge(withLookup("merge-engine", "partial-update", "ignore-delete", "true"), lone)).isSameAs(lone);

        // Two versions of which one is kept: the engine's function merges it (aggregation makes a +I of
        // the +U), as Apache Paimon does; the pass-through sees all versions, not the kept ones.
        KeyValue level1 = kv(1, 2, RowKind.UPDATE_AFTER, 1, 10L, "one", 0);
        KeyValue merged = merge(withLookup(AGGREGATION), kv(4, 1, RowKind.INSERT, 1, 100L, "deep", 0), level1);
        assertThat(merged).isNotSameAs(level1);
        assertThat(rendered(merged, ROW)).containsExactly(RowKind.INSERT, "1", "10", "one", "0");
    }

    @Test
    void forceLookupAndDeletionVectorsMergeSoToo() {
        KeyValue[] versions = acrossLevels(new Object[] {1, 100L, null, 0}, new Object[] {1, 10L, null, 0},
                new Object[] {1, 1L, null, 0}, new Object[] {1, 2L, null, 0});
        for (String option : new String[] {"force-lookup", "deletion-vectors.enabled"}) {
            String[] options = Arrays.copyOf(AGGREGATION, AGGREGATION.length + 2);
            options[AGGREGATION.length] = option;
            options[AGGREGATION.length + 1] = "true";
            assertThat(rendered(merge(engine(options), versions), ROW)).as(option)
                    .containsExactly(RowKind.INSERT, "1", "13", null, "0");
        }
    }

    @Test
    void firstRowIsNotWrapped() {
        MergeFunctionFactory firstRow = withLookup("merge-engine", "first-row");
        KeyValue level3 = kv(3, 1, RowKind.INSERT, 1, 1L, "deep", 0);
        assertThat(merge(firstRow, level3, kv(1, 2, RowKind.INSERT, 1, 2L, "one", 0))).isSameAs(level3);
        assertThat(firstRow.readsLevelZero()).isFalse();
        assertThat(firstRow.rawReadAcrossLevels()).isTrue();
    }

    @Test
    void projectionsBindTheEngineAndKeepTheRule() {
        // Aggregation over the projection (a): the bound engine sums only that column.
        MergeFunctionFactory aggregation = withLookup(AGGREGATION);
        int[] readFields = aggregation.readFields(new int[] {1}, ROW.fieldCount());
        assertThat(readFields).containsExactly(1);
        MergeFunctionFactory bound = aggregation.forReadFields(readFields);
        KeyValue sum = merge(bound, kv(3, 1, RowKind.INSERT, 100L), kv(1, 2, RowKind.INSERT, 10L),
                kv(0, 3, RowKind.INSERT, 1L));
        assertThat(rendered(sum, RowType.of(DataTypes.BIGINT()))).containsExactly(RowKind.INSERT, "11");

        // Partial-update widens a projection with the sequence field of the wanted column's group.
        String[] grouped = {"merge-engine", "partial-update", "fields.f3.sequence-group", "f1"};
        MergeFunctionFactory partialUpdate = withLookup(grouped);
        int[] widened = partialUpdate.readFields(new int[] {1}, ROW.fieldCount());
        assertThat(widened).containsExactly(engine(grouped).readFields(new int[] {1}, ROW.fieldCount()));
        assertThat(widened).contains(1, 3);
        MergeFunctionFactory boundUpdate = partialUpdate.forReadFields(widened);
        Object[] deep = new Object[widened.length];
        Object[] top = new Object[widened.length];
        for (int i = 0; i < widened.length; i++) {
            deep[i] = widened[i] == 0 ? (Object) 1 : widened[i] == 1 ? (Object) 100L : widened[i] == 3 ? 9 : null;
            top[i] = widened[i] == 0 ? (Object) 1 : widened[i] == 1 ? (Object) 10L : widened[i] == 3 ? 5 : null;
        }
        // Without the rule level 3's newer group sequence (9 > 5) would keep its a = 100.
        KeyValue updated = merge(boundUpdate, kv(3, 1, RowKind.INSERT, deep), kv(1, 2, RowKind.INSERT, top));
        int a = indexOf(widened, 1);
        assertThat(rendered(updated, ROW.project(widened)).get(1 + a)).isEqualTo("10");
        KeyValue plain = merge(engine(grouped).forReadFields(widened), kv(3, 1, RowKind.INSERT, deep),
                kv(1, 2, RowKind.INSERT, top));
        assertThat(rendered(plain, ROW.project(widened)).get(1 + a)).isEqualTo("100");

        // Deduplicate takes versions whole: its projection is the engine itself.
        MergeFunctionFactory deduplicate = withLookup();
        assertThat(deduplicate.forReadFields(new int[] {2, 0})).isSameAs(deduplicate);
    }

    private static int indexOf(int[] values, int wanted) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == wanted) {
                return i;
            }
        }
        throw new AssertionError(wanted + " not in " + Arrays.toString(values));
    }

    @Test
    void capabilitiesAreTheWrappedEnginesOwn() {
        for (String[] options : new String[][] {{}, {"merge-engine", "partial-update"}, AGGREGATION,
                {"merge-engine", "partial-update", "fields.f3.sequence-group", "f1", "fields.f1.aggregate-function",
                        "sum"}}) {
            MergeFunctionFactory plain = engine(options);
            MergeFunctionFactory lookup = withLookup(options);
            assertThat(lookup).as(Arrays.toString(options)).isInstanceOf(LookupMerge.class);
            assertThat(lookup.keepsSingleVersion()).isEqualTo(plain.keepsSingleVersion());
            assertThat(lookup.rawReadAcrossLevels()).isFalse().isEqualTo(plain.rawReadAcrossLevels());
            assertThat(lookup.mergedRowIsStoredVersion()).isEqualTo(plain.mergedRowIsStoredVersion());
            assertThat(lookup.latestChangeIsMergedRow()).isEqualTo(plain.latestChangeIsMergedRow());
            assertThat(lookup.retractsUpdateBefore()).isEqualTo(plain.retractsUpdateBefore());
            assertThat(lookup.readsLevelZero()).isTrue();
            for (RowKind kind : RowKind.values()) {
                assertThat(lookup.refusesInput(kind)).isEqualTo(plain.refusesInput(kind));
            }
        }
    }
}
