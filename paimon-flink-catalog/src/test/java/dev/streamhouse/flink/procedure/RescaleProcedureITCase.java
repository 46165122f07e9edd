package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** {@code CALL sys.rescale} through Flink SQL: a partition or table rewritten with a new bucket count. */
class RescaleProcedureITCase extends CatalogITCaseBase {

    private FileStoreTable table(String name) {
        return (FileStoreTable) storage().getTable(Identifier.of("default", name));
    }

    /** Partition (first partition value, or "" when unpartitioned) to the bucket counts its files have. */
    private Map<String, Set<Integer>> totalBuckets(String name) throws Exception {
        Map<String, Set<Integer>> out = new TreeMap<>();
        for (DataSplit split : table(name).newReadBuilder().newScan().plan().splits()) {
            String partition = split.partition().arity() == 0 ? "" : split.partition().stringAt(0).toString();
            out.computeIfAbsent(partition, k -> new TreeSet<>()).add(split.totalBuckets());
        }
        return out;
    }

    private void createPrimaryKeyTable() throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                + " WITH ('bucket' = '2')");
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            values.append(i == 0 ? "" : ", ").append("(").append(i).append(", 'v").append(i).append("', '")
                    .append(i % 2 == 0 ? "x" : "y").append("')");
        }
        sql("INSERT INTO t VALUES " + values).await();
        sql("INSERT INTO t VALUES (0, 'v0b', 'x'), (1, 'v1b', 'y')").await();
    }

    @Test
    void alterThenRescaleAPartitionLetsWritersContinueIt() throws Exception {
        createPrimaryKeyTable();
        List<String> before = sortedRows("SELECT * FROM t");
        sql("ALTER TABLE t SET ('bucket' = '4')");

        assertThatThrownBy(() -> sql("INSERT INTO t VALUES (100, 'new', 'x')"))
                .hasStackTraceContaining("partition dt=x of table default.t")
                .hasStackTraceContaining("written with 2 buckets").hasStackTraceContaining("'bucket' is now 4")
                .hasStackTraceContaining("CALL sys.rescale(`table` => 'default.t', `partition` => 'dt=x')");

        assertThat(rows("CALL sys.rescale(`table` => 'default.t', `partition` => 'dt=x')"))
                .containsExactly("+I[Success]");

        assertThat(totalBuckets("t")).containsEntry("x", Set.of(4)).containsEntry("y", Set.of(2));
        assertThat(table("t").latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(sortedRows("SELECT * FROM t")).isEqualTo(before).hasSize(20);
        assertThat(sortedRows("SELECT DISTINCT bucket FROM `t$files` WHERE `partition` = '{x}'")).hasSizeGreaterThan(2);

        sql("INSERT INTO t VALUES (100, 'new', 'x'), (0, 'v0c', 'x')").await();
        assertThat(sortedRows("SELECT * FROM t WHERE dt = 'x' AND id IN (0, 100)"))
                .containsExactly("+I[0, v0c, x]", "+I[100, new, x]");
        assertThatThrownBy(() -> sql("INSERT INTO t VALUES (101, 'new', 'y')"))
                .hasStackTraceContaining("partition dt=y of table default.t");
    }

    @Test
    void bucketNumRescalesTheWholeTableOfAnAppendTable() throws Exception {
        sql("CREATE TABLE logs (id INT, v STRING) WITH ('bucket' = '2', 'bucket-key' = 'id')");
        sql("INSERT INTO logs VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e'), (6, 'f')").await();
        List<String> before = sortedRows("SELECT * FROM logs");

        assertThat(rows("CALL sys.rescale('default.logs', 3)")).containsExactly("+I[Success]");

        assertThat(totalBuckets("logs")).containsExactly(Map.entry("", Set.of(3)));
        assertThat(sortedRows("SELECT * FROM logs")).isEqualTo(before);
        // The table option is unchanged: writers refuse until it says 3 as well.
        assertThatThrownBy(() -> sql("INSERT INTO logs VALUES (7, 'g')"))
                .hasStackTraceContaining("written with 3 buckets").hasStackTraceContaining("'bucket' is now 2");
        sql("ALTER TABLE logs SET ('bucket' = '3')");
        sql("INSERT INTO logs VALUES (7, 'g')").await();
        assertThat(sortedRows("SELECT * FROM logs")).hasSize(7).contains("+I[7, g]");
    }

    @Test
    void parallelismArgumentsAreUsed() throws Exception {
        createPrimaryKeyTable();
        List<String> before = sortedRows("SELECT * FROM t");
        assertThat(rows("CALL sys.rescale(`table` => 'default.t', bucket_num => 3, scan_parallelism => 1,"
                + " sink_parallelism => 2)")).containsExactly("+I[Success]");
        assertThat(totalBuckets("t")).containsEntry("x", Set.of(3)).containsEntry("y", Set.of(3));
        assertThat(sortedRows("SELECT * FROM t")).isEqualTo(before);
    }

    @Test
    void refusalsNameTheProblem() throws Exception {
        assertThat(rows("SHOW PROCEDURES FROM sys")).contains("+I[rescale]");
        sql("CREATE TABLE fresh (id INT, dt STRING) PARTITIONED BY (dt) WITH ('bucket' = '2', 'bucket-key' = 'id')");
        assertThatThrownBy(() -> rows("CALL sys.rescale(`table` => 'default.fresh', bucket_num => 4)"))
                .hasStackTraceContaining("Table default.fresh has no snapshot. No need to rescale.");
        sql("INSERT INTO fresh VALUES (1, 'a')");
        assertThatThrownBy(() -> rows("CALL sys.rescale(`table` => 'default.fresh', `partition` => 'dt=b')"))
                .hasStackTraceContaining("The specified partition does not have any data files");
        assertThatThrownBy(() -> rows("CALL sys.rescale(`table` => 'default.fresh', bucket_num => 0)"))
                .hasStackTraceContaining("'bucket_num'").hasStackTraceContaining("at least 1");
        assertThatThrownBy(() -> rows("CALL sys.rescale(`table` => 'default.fresh', `partition` => 'dt=a;dt=b')"))
                .hasStackTraceContaining("one partition spec is expected");
        sql("CREATE TABLE dyn (id INT PRIMARY KEY NOT ENFORCED, v STRING) WITH ('bucket' = '-1')");
        sql("INSERT INTO dyn VALUES (1, 'a')");
        assertThatThrownBy(() -> rows("CALL sys.rescale(`table` => 'default.dyn', bucket_num => 4)"))
                .hasStackTraceContaining("'bucket' = -1 (dynamic buckets)")
                .hasStackTraceContaining("fixed bucket count only");
    }
    @Test
    void aCommitAfterTheReadFailsTheRescaleAndChangesNothing() throws Exception {
        createPrimaryKeyTable();
        FileStoreTable t = table("t");
        long read = t.latestSnapshot().orElseThrow().id();
        sql("INSERT INTO t VALUES (200, 'late', 'x')").await();
        List<String> rows = sortedRows("SELECT * FROM t");
        FileStoreTable rescaled = t.copy(Map.of("bucket", "4"));
        List<dev.streamhouse.storage.commit.CommitMessage> written;
        try (dev.streamhouse.storage.table.sink.TableWrite w = rescaled.newOverwriteWrite()) {
            w.write(dev.streamhouse.storage.data.GenericRow.of(7,
                    dev.streamhouse.storage.data.BinaryString.fromString("v7"),
                    dev.streamhouse.storage.data.BinaryString.fromString("x")));
            written = w.prepareCommit();
        }
        java.nio.file.Path file = warehouse.resolve("default.db/t/dt=x/bucket-" + written.get(0).bucket())
                .resolve(written.get(0).dataIncrement().newFiles().get(0).fileName());
        assertThat(file).exists();
        try (dev.streamhouse.storage.table.sink.TableCommit commit = rescaled.newStreamCommit("rescale-test")) {
            assertThatThrownBy(() -> new RescaleCommit(rescaled, read, Map.of("dt", "x")).commit(commit, 1, written))
                    .hasMessageContaining("Cannot rescale table default.t")
                    .hasMessageContaining("snapshot " + (read + 1) + " (APPEND)")
                    .hasMessageContaining("its rows would be lost");
        }
        assertThat(file).as("the rescale's own file is deleted").doesNotExist();
        assertThat(table("t").latestSnapshot().orElseThrow().id()).isEqualTo(read + 1);
        assertThat(sortedRows("SELECT * FROM t")).isEqualTo(rows).contains("+I[200, late, x]");
    }
}
