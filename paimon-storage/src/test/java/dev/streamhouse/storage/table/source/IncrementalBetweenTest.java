package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;

import static dev.streamhouse.storage.table.source.StreamFixture.pk;
import static dev.streamhouse.storage.table.source.StreamFixture.read;
import static dev.streamhouse.storage.table.source.StreamFixture.sorted;
import static dev.streamhouse.storage.testutils.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Batch reads with {@code incremental-between = 'start,end'}: what snapshots start+1..end changed, with
 * Apache Paimon 1.3.1's semantics: every change row, unmerged, with its row kind (-U/-D included).
 */
class IncrementalBetweenTest {
    @TempDir
    java.nio.file.Path tmp;

    private StreamFixture fx;

    @BeforeEach
    void fixture() {
        fx = new StreamFixture(tmp);
    }

    private static List<String> incremental(FileStoreTable table, String range) throws Exception {
        ReadBuilder rb = table.copy(Map.of("incremental-between", range)).newReadBuilder();
        TableScan.Plan plan = rb.newScan().plan();
        assertThat(plan.splits()).allMatch(DataSplit::delta);
        return read(rb, plan.splits());
    }

    @Test
    void appendTableReadsTheRowsOfSnapshotsAfterStartUpToEnd() throws Exception {
        FileStoreTable table = fx.appendTable();
        for (int i = 1; i <= 8; i++) {
            fx.commit(table, row(i, "r" + i, i % 2 == 0 ? "a" : "b"), row(100 + i, "s" + i, "a"));
        }
        ReadBuilder rb = table.copy(Map.of("incremental-between", "3,7")).newReadBuilder();
        TableScan.Plan plan = rb.newScan().plan();
        assertThat(plan.snapshotId()).isEqualTo(7);
        assertThat(sorted(read(rb, plan.splits()))).containsExactly("+I(104, s4, a)", "+I(105, s5, a)",
                "+I(106, s6, a)", "+I(107, s7, a)", "+I(4, r4, a)", "+I(5, r5, b)", "+I(6, r6, a)", "+I(7, r7, b)");
        assertThat(plan.splits()).as("one split per partition and snapshot (4 and 6 wrote one partition)")
                .hasSize(6);
        assertThat(sorted(incremental(table, "0,1"))).containsExactly("+I(1, r1, b)", "+I(101, s1, a)");
        assertThat(incremental(table, "5,5")).isEmpty();
        assertThat(sorted(incremental(table, " 7 , 8 "))).containsExactly("+I(108, s8, a)", "+I(8, r8, a)");
    }

    /** Snapshots 1..4 of a primary-key table; the commented rows are what each stores. */
    private FileStoreTable fourSnapshots(String... options) throws Exception {
        FileStoreTable table = fx.pkTable(options);
        fx.commit(table, pk(1, 10, "a"), pk(2, 20, "a"), pk(3, 30, "a"), pk(4, 40, "b"));
        fx.commit(table, pk(RowKind.UPDATE_BEFORE, 1, 10, "a"), pk(RowKind.UPDATE_AFTER, 1, 11, "a"));
        fx.commit(table, pk(RowKind.UPDATE_BEFORE, 1, 11, "a"), pk(RowKind.UPDATE_AFTER, 1, 12, "a"),
                pk(RowKind.DELETE, 2, 20, "a"), pk(5, 50, "b"));
        fx.commit(table, pk(RowKind.DELETE, 5, 50, "b"), pk(RowKind.UPDATE_BEFORE, 4, 40, "b"),
                pk(RowKind.UPDATE_AFTER, 4, 41, "b"));
        return table;
    }

    @Test
    void primaryKeyTableReadsEveryStoredVersionOfTheRangeWithItsRowKind() throws Exception {
        FileStoreTable table = fourSnapshots("bucket", "1");
        // Data files hold what the write buffer merged: +U for -U/+U pairs, -D kept. Nothing merged across
        // snapshots: key 1 appears twice, key 5 is inserted and deleted.
        assertThat(incremental(table, "1,4")).containsExactly("+U(1, 11, a)", "+U(1, 12, a)", "-D(2, 20, a)",
                "+I(5, 50, b)", "+U(4, 41, b)", "-D(5, 50, b)");
        assertThat(incremental(table, "1,2")).containsExactly("+U(1, 11, a)");
        assertThat(incremental(table, "3,4")).containsExactly("+U(4, 41, b)", "-D(5, 50, b)");
        assertThat(sorted(incremental(table, "0,1"))).containsExactly("+I(1, 10, a)", "+I(2, 20, a)",
                "+I(3, 30, a)", "+I(4, 40, b)");
    }

    @Test
    void inputChangelogTableReadsTheChangelogOfTheRangeUnlessDeltaIsAsked() throws Exception {
        FileStoreTable table = fourSnapshots("bucket", "1", "changelog-producer", "input");
        assertThat(incremental(table, "1,3")).containsExactly("-U(1, 10, a)", "+U(1, 11, a)", "-U(1, 11, a)",
                "+U(1, 12, a)", "-D(2, 20, a)", "+I(5, 50, b)");
        assertThat(incremental(table.copy(Map.of("incremental-between-scan-mode", "changelog")), "3,4"))
                .containsExactly("-U(4, 40, b)", "+U(4, 41, b)", "-D(5, 50, b)");
        assertThat(incremental(table.copy(Map.of("incremental-between-scan-mode", "delta")), "3,4"))
                .containsExactly("+U(4, 41, b)", "-D(5, 50, b)");
        // A table without changelog files has no changes in 'changelog' mode.
        FileStoreTable none = fx.pkTable("bucket", "1");
        fx.commit(none, pk(1, 10, "a"));
        assertThat(incremental(none.copy(Map.of("incremental-between-scan-mode", "changelog")), "0,1")).isEmpty();
        // 'diff' compares two snapshots' states (IncrementalDiffTest): snapshot 0 is none.
        assertThatThrownBy(() -> none.copy(Map.of("incremental-between", "0,1", "incremental-between-scan-mode",
                "diff")).newReadBuilder().newScan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("snapshot 0 does not exist");
    }

    @Test
    void compactAndOverwriteSnapshotsInTheRangeAreSkipped() throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "1");
        fx.commit(table, pk(1, 10, "a"), pk(2, 20, "b"));   // 1
        fx.commit(table, pk(RowKind.UPDATE_AFTER, 1, 11, "a"));  // 2
        fx.compactAll(table);                              // 3
        fx.overwrite(table, "b", pk(3, 30, "b"));          // 4
        fx.commit(table, pk(4, 40, "a"));                  // 5
        assertThat(incremental(table, "1,5")).containsExactly("+U(1, 11, a)", "+I(4, 40, a)");

        FileStoreTable append = fx.appendTable("streaming-read-append-overwrite", "true");
        fx.commit(append, row(1, "x", "a"));
        fx.overwrite(append, "a", row(2, "y", "a"));
        fx.commit(append, row(3, "z", "a"));
        assertThat(incremental(append, "0,3")).containsExactly("+I(1, x, a)", "+I(3, z, a)");
        assertThat(TestTables.readAll(append)).containsExactly("+I(2, y, a)", "+I(3, z, a)");
    }

    @Test
    void filtersAndProjectionApply() throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "2");
        fx.commit(table, pk(1, 10, "a"), pk(2, 20, "b"));
        fx.commit(table, pk(RowKind.UPDATE_AFTER, 1, 11, "a"), pk(RowKind.UPDATE_AFTER, 2, 21, "b"), pk(3, 30, "a"));
        ReadBuilder rb = table.copy(Map.of("incremental-between", "1,2")).newReadBuilder()
                .withFilter(new dev.streamhouse.storage.predicate.PredicateBuilder(table.rowType()).equal(2, "a"))
                .withProjection(List.of("id", "v"));
        TableScan.Plan plan = rb.newScan().plan();
        assertThat(plan.splits()).allMatch(s -> s.partition().stringAt(0).toString().equals("a"));
        assertThat(sorted(read(rb, plan.splits()))).containsExactly("+I(3, 30)", "+U(1, 11)");
        // As for streaming reads, a value filter does not drop primary-key changes.
        ReadBuilder value = table.copy(Map.of("incremental-between", "1,2")).newReadBuilder()
                .withFilter(new dev.streamhouse.storage.predicate.PredicateBuilder(table.rowType()).lessThan(1, 15L));
        assertThat(sorted(read(value, value.newScan().plan().splits())))
                .containsExactly("+I(3, 30, a)", "+U(1, 11, a)", "+U(2, 21, b)");
    }

    @Test
    void anEmptyTableReadsNothing() throws Exception {
        FileStoreTable table = fx.appendTable();
        ReadBuilder rb = table.copy(Map.of("incremental-between", "0,3")).newReadBuilder();
        TableScan.Plan plan = rb.newScan().plan();
        assertThat(plan.snapshotId()).isNull();
        assertThat(plan.splits()).isEmpty();
    }

    @Test
    void malformedOrUnavailableRangesFailNamingTheOption() throws Exception {
        FileStoreTable table = fx.appendTable();
        for (int i = 1; i <= 5; i++) {
            fx.commit(table, row(i, "r" + i, "a"));
        }
        for (String bad : List.of("3", "1,2,3", "", "3;5")) {
            assertThatThrownBy(() -> table.copy(Map.of("incremental-between", bad)))
                    .as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Cannot use table default.test with dynamic options: Invalid value '" + bad
                            + "' for option 'incremental-between': it must be 'start,end', two snapshot ids (start "
                            + "exclusive, end inclusive) or two tag names");
        }
        for (String tags : List.of("a,b", "tag1,tag2")) {
            assertThatThrownBy(() -> table.copy(Map.of("incremental-between", tags)).newReadBuilder().newScan())
                    .as(tags).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("option 'incremental-between' = '" + tags + "': it names neither two "
                            + "existing tags nor two snapshot ids");
        }
        assertThatThrownBy(() -> table.copy(Map.of("incremental-between", "4,2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'incremental-between': the start snapshot must be >= 0 and the end snapshot "
                        + ">= the start");
        assertThatThrownBy(() -> table.copy(Map.of("incremental-between", "-1,2")).newReadBuilder().newScan())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'-1,2'");
        assertThatThrownBy(() -> table.copy(Map.of("incremental-between", "3,9")).newReadBuilder().newScan().plan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot read the changes between snapshots 3 and 9 of table default.test: the retained "
                        + "snapshots are 1 to 5; fix option 'incremental-between'");

        StreamFixture.expireBefore(table, 3);
        assertThat(incremental(table, "2,4")).containsExactly("+I(3, r3, a)", "+I(4, r4, a)");
        assertThatThrownBy(() -> table.copy(Map.of("incremental-between", "1,4")).newReadBuilder().newScan().plan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the retained snapshots are 3 to 5");
        assertThat(TestTables.readAll(table)).hasSize(5);
    }
}
