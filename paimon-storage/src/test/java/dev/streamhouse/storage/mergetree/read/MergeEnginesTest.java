package dev.streamhouse.storage.mergetree.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.options.Options;

import org.junit.jupiter.api.Test;

class MergeEnginesTest {

    private static KeyValue kv(long seq, RowKind kind) {
        return new KeyValue().replace(GenericRow.of(1), seq, kind, GenericRow.of(1, seq));
    }

    @Test
    void deduplicateKeepsTheLastVersionEvenARetraction() {
        MergeFunction f = MergeEngines.create(new Options()).create();
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
        MergeFunction f = MergeEngines.create(Options.of("ignore-delete", "true")).create();
        f.reset();
        KeyValue insert = kv(0, RowKind.INSERT);
        f.add(insert);
        f.add(kv(1, RowKind.UPDATE_BEFORE));
        f.add(kv(2, RowKind.DELETE));
        assertThat(f.result()).isSameAs(insert);

        f.reset();
        f.add(kv(3, RowKind.DELETE));
        assertThat(f.result()).isNull();
    }

    @Test
    void otherEnginesAreRefusedNamingTheOption() {
        for (String engine : new String[] {"partial-update", "aggregation", "first-row"}) {
            assertThatThrownBy(() -> MergeEngines.create(Options.of("merge-engine", engine)))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("merge-engine")
                    .hasMessageContaining(engine);
        }
    }

    @Test
    void deduplicateDeclaresWhatTheReadPathMayAssume() {
        for (String producer : new String[] {"none", "input", "lookup", "full-compaction"}) {
            MergeFunctionFactory engine = MergeEngines.create(Options.of("changelog-producer", producer));
            assertThat(engine.keepsSingleVersion()).isTrue();
            assertThat(engine.mergedRowIsStoredVersion()).isTrue();
            assertThat(engine.rawReadAcrossLevels()).isFalse();
            assertThat(engine.readFields(new int[] {2, 0}, 4)).containsExactly(2, 0);
            assertThat(engine.forReadFields(new int[] {2, 0})).isSameAs(engine);
        }
        // A lone retraction is dropped under ignore-delete, so one version no longer merges to itself.
        assertThat(MergeEngines.create(Options.of("ignore-delete", "true")).keepsSingleVersion()).isFalse();
    }
}
