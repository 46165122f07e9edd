package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** System tables are storage tables: engine-neutral rows, read with projection, filters and time travel. */
class SystemTablesTest {
    @TempDir
    java.nio.file.Path dir;

    private FileStoreTable threeSnapshots() throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(dir.toString() + "/db.db/t"),
                TestTables.simpleSchema());
        TestTables.write(table, TestTables.rows(1, 4, 2));
        TestTables.write(table, TestTables.rows(5, 2, 2));
        TestTables.write(table, TestTables.rows(7, 1, 1));
        return table;
    }

    @Test
    void snapshotsWithProjectionAndFilter() throws Exception {
        FileStoreTable table = threeSnapshots();
        SystemTable snapshots = SystemTables.of(table, "SNAPSHOTS").orElseThrow();
        assertThat(snapshots.fullName()).isEqualTo("default.test$snapshots");
        assertThat(snapshots.rowType().fieldNames()).startsWith("snapshot_id", "schema_id", "commit_user");

        List<Long> ids = new ArrayList<>();
        SystemTableRead read = snapshots.newRead()
                .withFilter(new PredicateBuilder(snapshots.rowType()).greaterThan(0, 1L))
                .withProjection(new int[] {0, 4});
        assertThat(read.readType().fieldNames()).containsExactly("snapshot_id", "commit_kind");
        read.createReader().forEachRemaining(r -> {
            ids.add(r.longAt(0));
            assertThat(r.stringAt(1)).isEqualTo(BinaryString.fromString("APPEND"));
        });
        assertThat(ids).containsExactly(2L, 3L);
    }

    @Test
    void timeTravelComesFromTheDataTablesOptions() throws Exception {
        FileStoreTable table = threeSnapshots();
        assertThat(count(SystemTables.of(table, "files").orElseThrow())).isEqualTo(5);
        SystemTable atFirst = SystemTables.of(table.copy(Map.of("scan.snapshot-id", "1")), "files").orElseThrow();
        assertThat(count(atFirst)).isEqualTo(2);
        SystemTable missing = SystemTables.of(table.copy(Map.of("scan.snapshot-id", "9")), "files").orElseThrow();
        assertThatThrownBy(() -> count(missing))
                .hasMessage("Cannot read the metadata of table default.test at snapshot 9 (option 'scan.snapshot-id'): "
                        + "no such snapshot; existing snapshots are [1, 2, 3]");
    }

    private static long count(SystemTable table) throws Exception {
        long[] n = {0};
        table.newRead().createReader().forEachRemaining(r -> n[0]++);
        return n[0];
    }

    @Test
    void unknownNamesAndBadProjectionsAreRefused() throws Exception {
        FileStoreTable table = threeSnapshots();
        assertThat(SystemTables.of(table, "nope")).isEmpty();
        assertThat(SystemTables.names()).containsExactly("snapshots", "schemas", "options", "files", "partitions",
                "buckets", "manifests", "table_indexes", "consumers", "tags", "levels", "table_health", "audit_log", "binlog",
                "ro");
        assertThatThrownBy(() -> SystemTables.of(table, "options").orElseThrow().newRead().withProjection(new int[] {2}))
                .hasMessageContaining("Cannot project column 2 of system table default.test$options");
        assertThat(SystemTables.isSystemTableName("t$files")).isTrue();
        assertThat(SystemTables.dataTableName("t$files")).isEqualTo("t");
        assertThat(SystemTables.systemTableName("t$files")).isEqualTo("files");
    }
}
