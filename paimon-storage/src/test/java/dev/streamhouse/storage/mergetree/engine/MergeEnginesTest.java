package dev.streamhouse.storage.mergetree.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.types.RowType;

import org.junit.jupiter.api.Test;

import java.util.List;

class MergeEnginesTest {

    private static final RowType ROW = RowType.of(DataTypes.INT().notNull(), DataTypes.BIGINT());

    private static MergeFunctionFactory engine(String... options) {
        return MergeEngines.create(ROW, List.of("f0"), Options.of(options));
    }

    private static KeyValue kv(long seq, RowKind kind) {
        return new KeyValue().replace(GenericRow.of(1), seq, kind, GenericRow.of(1, seq));
    }

    @Test
    void deduplicateKeepsTheLastVersionEvenARetraction() {
        MergeFunction f = engine().create();
        f.reset();
        KeyValue last = kv(2, RowKind.DELETE);
        f.add(kv(0, RowKind.INSERT));
        f.add(kv(1, RowKind.UPDATE_AFTER));
        f.add(last);
        assertThat(f.result()).isSameAs(last);

        f.reset();
        KeyValue only = kv(5, RowKind.INSERT);
        f.add(only);
        assertThat(f.result()).isSameAs(only);
    }

    @Test
    void ignoreDeleteSkipsRetractionsEntirely() {
        MergeFunction f = engine("ignore-delete", "true").create();
        f.reset();
        KeyValue insert = kv(0, RowKind.INSERT);
        f.add(insert);
        f.add(kv(1, RowKind.UPDATE_BEFORE));
        f.add(kv(2, RowKind.DELETE));
        assertThat(f.result()).isSameAs(insert);

        // A lone version passes through as it is, as in Apache Paimon: readers drop the retraction.
        f.reset();
        KeyValue lone = kv(3, RowKind.DELETE);
        f.add(lone);
        assertThat(f.result()).isSameAs(lone);

        f.reset();
        f.add(kv(4, RowKind.DELETE));
        f.add(kv(5, RowKind.DELETE));
        assertThat(f.result()).isNull();
    }

    @Test
    void eachEngineDeclaresWhatTheReadAndWritePathsMayAssume() {
        MergeFunctionFactory partialUpdate = engine("merge-engine", "partial-update");
        assertThat(partialUpdate.keepsSingleVersion()).isTrue();
        assertThat(partialUpdate.mergedRowIsStoredVersion()).isFalse();
        assertThat(partialUpdate.refusesInput(RowKind.DELETE)).contains("ignore-delete");
        assertThat(partialUpdate.refusesInput(RowKind.UPDATE_AFTER)).isNull();
        assertThat(engine("merge-engine", "partial-update", "ignore-delete", "true").refusesInput(RowKind.DELETE))
                .isNull();
        assertThat(partialUpdate.retractsUpdateBefore()).isFalse();

        MergeFunctionFactory firstRow = engine("merge-engine", "first-row");
        assertThat(firstRow.readsLevelZero()).isFalse();
        assertThat(firstRow.rawReadAcrossLevels()).isTrue();
        assertThat(firstRow.mergedRowIsStoredVersion()).isTrue();
        assertThat(firstRow.refusesInput(RowKind.UPDATE_BEFORE)).contains("ignore-delete");
        assertThat(engine("merge-engine", "first-row", "ignore-delete", "true").refusesInput(RowKind.DELETE)).isNull();

        assertThat(engine("merge-engine", "deduplicate").readsLevelZero()).isTrue();
        assertThatThrownBy(() -> engine("merge-engine", "first-row", "changelog-producer", "input"))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("changelog-producer");
    }

    @Test
    void partialUpdateRefusesContradictoryDeleteOptionsNamingThem() {
        assertThatThrownBy(() -> engine("merge-engine", "partial-update", "ignore-delete", "true",
                "partial-update.remove-record-on-delete", "true"))
                .hasMessageContaining("ignore-delete").hasMessageContaining("partial-update.remove-record-on-delete");
        assertThatThrownBy(() -> MergeEngines.create(RowType.of(DataTypes.INT().notNull(), DataTypes.BIGINT(),
                DataTypes.INT()), List.of("f0"), Options.of("merge-engine", "partial-update",
                "fields.f2.sequence-group", "f1", "partial-update.remove-record-on-delete", "true")))
                .hasMessageContaining("sequence-group").hasMessageContaining("partial-update.remove-record-on-delete");
        assertThatThrownBy(() -> MergeEngines.create(RowType.of(DataTypes.INT().notNull(), DataTypes.BIGINT(),
                DataTypes.INT()), List.of("f0"), Options.of("merge-engine", "partial-update",
                "fields.f2.sequence-group", "f1", "partial-update.remove-record-on-sequence-group", "f1")))
                .hasMessageContaining("partial-update.remove-record-on-sequence-group").hasMessageContaining("'f1'");
        assertThatThrownBy(() -> MergeEngines.create(RowType.of(DataTypes.INT().notNull(), DataTypes.BIGINT(),
                DataTypes.INT()), List.of("f0"), Options.of("merge-engine", "partial-update",
                "fields.f2.sequence-group", "f1,nope")))
                .hasMessageContaining("fields.f2.sequence-group").hasMessageContaining("'nope'");
    }

    @Test
    void deduplicateDeclaresWhatTheReadPathMayAssume() {
        for (String producer : new String[] {"none", "input", "lookup", "full-compaction"}) {
            MergeFunctionFactory engine = engine("changelog-producer", producer);
            assertThat(engine.keepsSingleVersion()).isTrue();
            assertThat(engine.mergedRowIsStoredVersion()).isTrue();
            assertThat(engine.rawReadAcrossLevels()).isFalse();
            assertThat(engine.readFields(new int[] {2, 0}, 4)).containsExactly(2, 0);
            assertThat(engine.forReadFields(new int[] {2, 0})).isSameAs(engine);
        }
        assertThat(engine("ignore-delete", "true").keepsSingleVersion()).isTrue();
    }
}
