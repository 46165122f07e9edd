package dev.streamhouse.storage.mergetree.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.stats.SimpleStats;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/** docs/format.md §8.2's raw-read rule, checked against an independent statement of it for all small cases. */
class RawReadRuleTest {

    /** Deduplicate: files on different levels need merging. */
    private static final MergeFunctionFactory DEDUPLICATE = MergeEngines.deduplicate(false);

    /** An engine that declares raw reads across levels, as first-row will. */
    private static final MergeFunctionFactory ACROSS_LEVELS = new MergeFunctionFactory() {
        @Override
        public MergeFunction create() {
            throw new UnsupportedOperationException("not merged in this test");
        }

        @Override
        public boolean rawReadAcrossLevels() {
            return true;
        }
    };

    private static final List<MergeFunctionFactory> ENGINES = List.of(DEDUPLICATE, ACROSS_LEVELS);

    private static DataFileMeta file(int level, Long deleteRowCount) {
        return new DataFileMeta("f-" + level + "-" + deleteRowCount, 1, 1, BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW,
                SimpleStats.EMPTY, SimpleStats.EMPTY, 0, 0, 0, level, List.of(), null, deleteRowCount, null,
                FileSource.COMPACT, null, null, null, null);
    }

    @Test
    void examplesFromTheSpec() {
        DataFileMeta l1 = file(1, 0L);
        DataFileMeta l1Null = file(1, null);
        DataFileMeta l2 = file(2, 0L);
        DataFileMeta l0 = file(0, 0L);
        DataFileMeta l1Deletes = file(1, 2L);
        assertThat(RawReadRule.rawConvertible(List.of(l1, l1Null), false, DEDUPLICATE)).isTrue();
        assertThat(RawReadRule.rawConvertible(List.of(l1, l2), false, DEDUPLICATE)).isFalse();
        assertThat(RawReadRule.rawConvertible(List.of(l1, l2), true, DEDUPLICATE)).isTrue();
        assertThat(RawReadRule.rawConvertible(List.of(l1, l2), false, ACROSS_LEVELS)).isTrue();
        assertThat(RawReadRule.rawConvertible(List.of(l1, l2), false, DEDUPLICATE)).isFalse();
        assertThat(RawReadRule.rawConvertible(List.of(l0), true, ACROSS_LEVELS)).isFalse();
        assertThat(RawReadRule.rawConvertible(List.of(l1Deletes), true, ACROSS_LEVELS)).isFalse();
        assertThat(RawReadRule.rawConvertible(List.of(l2), false, DEDUPLICATE)).isTrue();
    }

    @Test
    void truthTableOverAllPairsOfFiles() {
        List<DataFileMeta> kinds = new ArrayList<>();
        for (int level = 0; level <= 2; level++) {
            for (Long deletes : new Long[] {null, 0L, 1L}) {
                kinds.add(file(level, deletes));
            }
        }
        int trueCases = 0;
        for (DataFileMeta a : kinds) {
            for (DataFileMeta b : kinds) {
                for (boolean dv : new boolean[] {false, true}) {
                    for (MergeFunctionFactory engine : ENGINES) {
                        boolean filesOk = ok(a) && ok(b);
                        boolean expected = filesOk && (dv || engine.rawReadAcrossLevels() || a.level() == b.level());
                        assertThat(RawReadRule.rawConvertible(List.of(a, b), dv, engine))
                                .as("%s %s dv=%s %s", a, b, dv, engine).isEqualTo(expected);
                        trueCases += expected ? 1 : 0;
                    }
                }
            }
        }
        assertThat(trueCases).isGreaterThan(0);
    }

    @Test
    void aSingleFileWithoutRetractionsIsRawOnAnyLevel() {
        for (int level = 0; level <= 2; level++) {
            for (Long deletes : new Long[] {null, 0L, 1L}) {
                DataFileMeta f = file(level, deletes);
                for (boolean dv : new boolean[] {false, true}) {
                    for (MergeFunctionFactory engine : ENGINES) {
                        boolean singleRun = (deletes == null || deletes == 0) && !dv && !engine.rawReadAcrossLevels();
                        assertThat(RawReadRule.rawConvertible(List.of(f), dv, engine)).as("%s dv=%s %s", f, dv, engine)
                                .isEqualTo(ok(f) || singleRun);
                    }
                }
            }
        }
    }

    private static boolean ok(DataFileMeta f) {
        return f.level() != 0 && (f.deleteRowCount() == null || f.deleteRowCount() == 0);
    }
}
