package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

/** {@code CALL sys.compact} through Flink SQL, in Apache Paimon's positional and named forms. */
class CompactProcedureITCase extends CatalogITCaseBase {

    @BeforeEach
    void writeThreeCommits() throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                + " WITH ('bucket' = '2')");
        sql("INSERT INTO t VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'y'), (4, 'd', 'y')").await();
        sql("INSERT INTO t VALUES (1, 'a2', 'x'), (3, 'c2', 'y')").await();
        sql("INSERT INTO t VALUES (2, 'b3', 'x'), (5, 'e', 'y')").await();
    }

    private List<String> tableRows() {
        return sortedRows("SELECT * FROM t");
    }

    /** level of every live file, per partition and bucket, from the $files system table. */
    private List<String> files(String partition) {
        return sortedRows("SELECT `partition`, bucket, level FROM `t$files` WHERE `partition` = '%s'", partition);
    }

    @Test
    void positionalCallCompactsEveryBucketFully() {
        List<String> before = tableRows();
        assertThat(files("{x}")).anyMatch(r -> r.endsWith(", 0]"));

        List<String> result = rows("CALL sys.compact('default.t')");

        assertThat(result).singleElement().asString()
                .contains("Compacted").contains("default.t").contains("snapshot 4");
        assertThat(sortedRows("SELECT commit_kind FROM `t$snapshots` WHERE snapshot_id = 4"))
                .containsExactly("+I[COMPACT]");
        for (String partition : List.of("{x}", "{y}")) {
            // one file per bucket, on the last level
            assertThat(files(partition)).allMatch(r -> r.endsWith(", 5]")).doesNotHaveDuplicates().isNotEmpty();
        }
        assertThat(tableRows()).isEqualTo(before).hasSize(5);

        assertThat(rows("CALL sys.compact('default.t')")).singleElement().asString().startsWith("+I[Nothing to compact");
    }

    @Test
    void namedArgumentsSelectPartitionsAndStrategy() {
        rows("CALL sys.compact(`table` => 'default.t', partitions => 'dt=x', compact_strategy => 'full',"
                + " options => 'sink.parallelism=1')");
        assertThat(files("{x}")).allMatch(r -> r.endsWith(", 5]"));
        assertThat(files("{y}")).anyMatch(r -> r.endsWith(", 0]"));

        rows("CALL paimon.sys.compact(`table` => 't', partitions => 'dt=x;dt=y')");
        assertThat(files("{y}")).allMatch(r -> r.endsWith(", 5]"));
    }

    @Test
    void proceduresAreListedInTheSysDatabase() {
        assertThat(rows("SHOW PROCEDURES FROM sys")).contains("+I[compact]");
    }

    @Test
    void badCallsNameWhatIsWrong() {
        assertThatThrownBy(() -> rows("CALL sys.compact('default.missing')"))
                .hasStackTraceContaining("missing");
        assertThatThrownBy(() -> rows("CALL sys.compact(`table` => 'default.t', order_strategy => 'zorder',"
                + " order_by => 'id')"))
                .hasStackTraceContaining("'order_strategy' (sort compaction) is not supported yet");
        assertThatThrownBy(() -> rows("CALL sys.compact(`table` => 'default.t', compact_strategy => 'most')"))
                .hasStackTraceContaining("compact_strategy").hasStackTraceContaining("expected 'full' or 'minor'");
        assertThatThrownBy(() -> rows("CALL sys.compact(`table` => 'default.t', partitions => 'nope=1')"))
                .hasStackTraceContaining("'nope' is not a partition key");
    }

    @Test
    void appendTablesHaveTheirSmallFilesMerged() throws Exception {
        sql("CREATE TABLE logs (id INT, v STRING) WITH ('bucket' = '-1')");
        for (int i = 0; i < 3; i++) {
            sql("INSERT INTO logs VALUES (%d, 'a'), (%d, 'b')", i * 2, i * 2 + 1).await();
        }
        List<String> before = sortedRows("SELECT * FROM logs");
        assertThat(sortedRows("SELECT file_path FROM `logs$files`")).hasSize(3);

        assertThat(rows("CALL sys.compact(`table` => 'default.logs')")).singleElement().asString()
                .contains("Compacted 1 of 1 buckets");

        assertThat(sortedRows("SELECT record_count FROM `logs$files`")).containsExactly("+I[6]");
        assertThat(sortedRows("SELECT * FROM logs")).isEqualTo(before).hasSize(6);
        assertThat(rows("CALL sys.compact(`table` => 'default.logs', compact_strategy => 'minor')"))
                .singleElement().asString().startsWith("+I[Nothing to compact");
    }
}
