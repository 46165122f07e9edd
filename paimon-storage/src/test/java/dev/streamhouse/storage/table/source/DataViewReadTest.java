package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.system.SystemTables;
import dev.streamhouse.storage.types.ArrayType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;

import static dev.streamhouse.storage.table.source.StreamFixture.drain;
import static dev.streamhouse.storage.table.source.StreamFixture.pk;
import static dev.streamhouse.storage.table.source.StreamFixture.read;
import static dev.streamhouse.storage.table.source.StreamFixture.rows;
import static dev.streamhouse.storage.table.source.StreamFixture.sorted;
import static dev.streamhouse.storage.testutils.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The system tables that show a table's data ({@code t$audit_log}, {@code t$binlog}, {@code t$ro})
 * read through the data read path, with the semantics seen in Apache Paimon 1.3.1 (see the interop
 * test {@code DataViewInteropITCase}). In this package for the shared {@link StreamFixture}.
 *
 * <p>Primary-key table (id, v, dt), one bucket:
 * <pre>
 *   snapshot 1: +I(1, 10, a) +I(2, 20, a) +I(3, 30, b)
 *   snapshot 2: -U(1, 10, a) +U(1, 11, a) -D(2, 20, a) +U(4, 40, b)
 * </pre>
 */
class DataViewReadTest {
    @TempDir
    java.nio.file.Path tmp;

    private StreamFixture fx;

    @BeforeEach
    void fixture() {
        fx = new StreamFixture(tmp);
    }

    private FileStoreTable twoSnapshots(String producer) throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "1", "changelog-producer", producer);
        fx.commit(table, pk(1, 10, "a"), pk(2, 20, "a"), pk(3, 30, "b"));
        fx.commit(table, pk(RowKind.UPDATE_BEFORE, 1, 10, "a"), pk(RowKind.UPDATE_AFTER, 1, 11, "a"),
                pk(RowKind.DELETE, 2, 20, "a"), pk(RowKind.UPDATE_AFTER, 4, 40, "b"));
        return table;
    }

    private static Table view(Table data, String name) {
        return SystemTables.dataView(data, name).orElseThrow();
    }

    private static List<String> batch(Table table) throws Exception {
        ReadBuilder rb = table.newReadBuilder();
        return read(rb, rb.newScan().plan().splits());
    }

    private static List<String> batch(Table table, Map<String, String> options) throws Exception {
        return batch(table.copy(options));
    }

    @Test
    void auditLogHasALeadingRowKindColumnAndNoPrimaryKey() throws Exception {
        FileStoreTable table = twoSnapshots("none");
        Table audit = view(table, "AUDIT_LOG");
        assertThat(audit.fullName()).isEqualTo(table.fullName() + "$audit_log");
        assertThat(audit.rowType().fieldNames()).containsExactly("rowkind", "id", "v", "dt");
        assertThat(audit.rowType().typeAt(0).asSQLString()).isEqualTo("STRING");
        assertThat(audit.rowType().typeAt(1).isNullable()).isFalse();
        assertThat(audit.primaryKeys()).isEmpty();
        assertThat(audit.partitionKeys()).containsExactly("dt");
        assertThat(audit.latestSnapshot()).isEqualTo(table.latestSnapshot());
    }

    @Test
    void auditLogBatchReadShowsEveryKeysMergedVersionWithItsKindDeletionsIncluded() throws Exception {
        FileStoreTable table = twoSnapshots("none");
        Table audit = view(table, "audit_log");
        assertThat(sorted(batch(audit))).containsExactly("+I(+I, 3, 30, b)", "+I(+U, 1, 11, a)",
                "+I(+U, 4, 40, b)", "+I(-D, 2, 20, a)");
        assertThat(sorted(batch(table))).as("the table itself leaves the deleted key out")
                .containsExactly("+I(3, 30, b)", "+U(1, 11, a)", "+U(4, 40, b)");
        assertThat(sorted(batch(audit, Map.of("scan.snapshot-id", "1"))))
                .containsExactly("+I(+I, 1, 10, a)", "+I(+I, 2, 20, a)", "+I(+I, 3, 30, b)");
    }

    @Test
    void auditLogChangesAreTheStoredChangesOfTheProducer() throws Exception {
        Map<String, String> second = Map.of("incremental-between", "1,2");
        assertThat(batch(view(twoSnapshots("input"), "audit_log"), second)).as("the changelog files")
                .containsExactly("+I(-U, 1, 10, a)", "+I(+U, 1, 11, a)", "+I(-D, 2, 20, a)", "+I(+U, 4, 40, b)");
        assertThat(batch(view(twoSnapshots("none"), "audit_log"), second))
                .as("the data files, the write buffer merged -U/+U of key 1")
                .containsExactly("+I(+U, 1, 11, a)", "+I(-D, 2, 20, a)", "+I(+U, 4, 40, b)");
    }

    @Test
    void auditLogStreamsTheFullSnapshotThenChangesAllAsInserts() throws Exception {
        FileStoreTable table = twoSnapshots("input");
        Table audit = view(table, "audit_log").copy(Map.of("scan.mode", "from-snapshot-full", "scan.snapshot-id", "1"));
        ReadBuilder rb = audit.newReadBuilder();
        List<StreamFixture.Planned> plans = drain(rb.newStreamScan(), rb);
        assertThat(rows(plans)).containsExactly("+I(+I, 1, 10, a)", "+I(+I, 2, 20, a)", "+I(+I, 3, 30, b)",
                "+I(-U, 1, 10, a)", "+I(+U, 1, 11, a)", "+I(-D, 2, 20, a)", "+I(+U, 4, 40, b)");
        assertThat(plans.get(1).splits()).allMatch(DataSplit::delta);
    }

    @Test
    void auditLogProjectsAndFiltersOnEveryColumnRowKindIncluded() throws Exception {
        FileStoreTable table = twoSnapshots("input");
        Table audit = view(table, "audit_log").copy(Map.of("incremental-between", "1,2"));
        PredicateBuilder pb = new PredicateBuilder(audit.rowType());
        ReadBuilder rb = audit.newReadBuilder().withProjection(List.of("v", "rowkind"))
                .withFilter(PredicateBuilder.and(pb.notEqual(0, "+U"), pb.greaterThan(1, 1)));
        assertThat(rb.readType().fieldNames()).containsExactly("v", "rowkind");
        assertThat(read(rb, rb.newScan().plan().splits())).containsExactly("+I(20, -D)");

        ReadBuilder onlyKind = audit.newReadBuilder().withProjection(new int[] {0});
        assertThat(read(onlyKind, onlyKind.newScan().plan().splits())).containsExactly("+I(-U)", "+I(+U)", "+I(-D)",
                "+I(+U)");
        ReadBuilder partition = audit.newReadBuilder().withProjection(new int[] {1})
                .withFilter(pb.equal(3, "b"));
        assertThat(partition.newScan().plan().splits()).as("the partition filter prunes the data read")
                .allMatch(s -> s.partition().stringAt(0).toString().equals("b"));
        assertThat(read(partition, partition.newScan().plan().splits())).containsExactly("+I(4)");
        assertThatThrownBy(() -> audit.newReadBuilder().withProjection(new int[] {4}))
                .hasMessageContaining("Cannot project column 4 of system table");
    }

    @Test
    void auditLogOfAnAppendTableShowsInserts() throws Exception {
        FileStoreTable table = fx.appendTable();
        fx.commit(table, row(1, "a", "x"), row(2, "b", "y"));
        assertThat(sorted(batch(view(table, "audit_log")))).containsExactly("+I(+I, 1, a, x)", "+I(+I, 2, b, y)");
    }

    @Test
    void binlogPacksAnUpdateIntoOneRowOfBeforeAndAfter() throws Exception {
        FileStoreTable table = twoSnapshots("input");
        Table binlog = view(table, "binlog");
        assertThat(binlog.rowType().fieldNames()).containsExactly("rowkind", "id", "v", "dt");
        ArrayType id = (ArrayType) binlog.rowType().typeAt(1);
        assertThat(id.isNullable()).isTrue();
        assertThat(id.elementType().isNullable()).as("elements are nullable, as in Paimon").isTrue();

        assertThat(batch(binlog, Map.of("incremental-between", "1,2"))).containsExactly(
                "+I(+U, [1, 1], [10, 11], [a, a])", "+I(-D, [2], [20], [a])", "+I(+U, [4], [40], [b])");
        assertThat(sorted(batch(binlog))).containsExactly("+I(+I, [3], [30], [b])", "+I(+U, [1], [11], [a])",
                "+I(+U, [4], [40], [b])", "+I(-D, [2], [20], [a])");
        Table changes = binlog.copy(Map.of("incremental-between", "1,2"));
        PredicateBuilder pb = new PredicateBuilder(changes.rowType());
        ReadBuilder updates = changes.newReadBuilder().withProjection(new int[] {2})
                .withFilter(pb.equal(0, "+U"));
        assertThat(read(updates, updates.newScan().plan().splits())).as("the filter sees the packed rows")
                .containsExactly("+I([10, 11])", "+I([40])");
    }

    @Test
    void binlogKeepsAnUnpairedUpdateBeforeAsItsOwnRow() throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "1", "changelog-producer", "input");
        fx.commit(table, pk(1, 10, "a"));
        fx.commit(table, pk(RowKind.UPDATE_BEFORE, 1, 10, "a"), pk(RowKind.DELETE, 1, 10, "a"));
        assertThat(batch(view(table, "binlog"), Map.of("incremental-between", "1,2")))
                .containsExactly("+I(-U, [1], [10], [a])", "+I(-D, [1], [10], [a])");
    }

    @Test
    void readOptimizedViewOfAPrimaryKeyTableReadsOnlyTheTopLevel() throws Exception {
        FileStoreTable table = twoSnapshots("none");
        Table ro = view(table, "ro");
        assertThat(ro.rowType()).isEqualTo(table.rowType());
        assertThat(ro.primaryKeys()).isEqualTo(table.primaryKeys());
        assertThat(batch(ro)).as("nothing is compacted yet").isEmpty();

        long compacted = fx.compactAll(table);
        fx.commit(table, pk(5, 50, "b"), pk(RowKind.UPDATE_AFTER, 3, 31, "b"));
        assertThat(sorted(batch(ro))).as("only what full compaction wrote; the last commit is not seen")
                .containsExactly("+I(3, 30, b)", "+U(1, 11, a)", "+U(4, 40, b)");
        assertThat(sorted(batch(table))).contains("+I(5, 50, b)", "+U(3, 31, b)");
        assertThat(sorted(batch(ro, Map.of("scan.snapshot-id", String.valueOf(compacted - 1))))).isEmpty();
        assertThatThrownBy(() -> ro.newReadBuilder().newStreamScan())
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("read-optimized view");
    }

    @Test
    void readOptimizedTopLevelFollowsNumLevels() throws Exception {
        FileStoreTable table = fx.pkTable("bucket", "1", "num-levels", "3");
        fx.commit(table, pk(1, 10, "a"));
        fx.compactAll(table);
        fx.commit(table, pk(2, 20, "a"));
        assertThat(batch(view(table, "ro"))).containsExactly("+I(1, 10, a)");
    }

    @Test
    void readOptimizedViewOfAnAppendTableIsTheTable() throws Exception {
        FileStoreTable table = fx.appendTable();
        fx.commit(table, row(1, "a", "x"));
        fx.commit(table, row(2, "b", "y"));
        Table ro = view(table, "ro");
        assertThat(sorted(batch(ro))).containsExactly("+I(1, a, x)", "+I(2, b, y)");
        ReadBuilder rb = ro.newReadBuilder();
        assertThat(sorted(rows(drain(rb.newStreamScan(), rb)))).containsExactly("+I(1, a, x)", "+I(2, b, y)");
    }

    @Test
    void dataViewsAreListedAndReadOnly() throws Exception {
        FileStoreTable table = twoSnapshots("none");
        assertThat(SystemTables.names()).contains("audit_log", "binlog", "ro");
        assertThat(SystemTables.isDataView("RO")).isTrue();
        assertThat(SystemTables.isDataView("files")).isFalse();
        assertThat(SystemTables.of(table, "audit_log")).as("not a metadata table").isEmpty();
        assertThat(SystemTables.dataView(table, "files")).isEmpty();
        for (String name : List.of("audit_log", "binlog", "ro")) {
            assertThatThrownBy(() -> view(table, name).newWrite())
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("system tables are read-only");
        }
        assertThatThrownBy(() -> view(table, "audit_log").copy(Map.of("scan.snapshot-id", "one")))
                .as("options are checked as the data table's dynamic options")
                .hasMessageContaining("Cannot use table " + table.fullName() + " with dynamic options")
                .hasMessageContaining("scan.snapshot-id");
    }
}
