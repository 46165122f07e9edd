package dev.streamhouse.e2e.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code CALL sys.rescale} against Apache Paimon 1.3.1 on one warehouse ({@link TwoCatalogs}): Paimon
 * reads, and keeps writing, a partition we rescaled after {@code ALTER TABLE SET ('bucket' = ...)};
 * we read, and keep writing, a table Paimon's own {@code sys.rescale} rewrote. We refuse to write a
 * partition still in the old bucket count.
 */
class RescaleInteropITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension();

    @TempDir
    Path warehouse;

    private TableEnvironment tEnv;

    @BeforeEach
    void open() {
        tEnv = TwoCatalogs.open(warehouse);
        // Paimon's procedures wait for their job only with dml-sync.
        tEnv.getConfig().set("table.dml-sync", "true");
    }

    private void sql(String statement) throws Exception {
        tEnv.executeSql(statement).await();
    }

    private List<String> sorted(String query) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        }
        out.sort(null);
        return out;
    }

    private static String values(int from, int count, String v) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < from + count; i++) {
            sb.append(i == from ? "" : ", ").append("(").append(i).append(", '").append(v).append(i).append("', '")
                    .append(i % 2 == 0 ? "x" : "y").append("')");
        }
        return sb.toString();
    }

    private List<String> sameRows(String table) throws Exception {
        List<String> ours = sorted("SELECT * FROM ours.`default`." + table);
        assertThat(ours).as("our rows of " + table + " are Paimon's")
                .isEqualTo(sorted("SELECT * FROM theirs.`default`." + table));
        return ours;
    }

    @Test
    void paimonReadsAndWritesAPartitionWeRescaled() throws Exception {
        sql("CREATE TABLE ours.`default`.t (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED)"
                + " PARTITIONED BY (dt) WITH ('bucket' = '2')");
        sql("INSERT INTO ours.`default`.t VALUES " + values(0, 20, "a"));
        sql("INSERT INTO ours.`default`.t VALUES " + values(0, 4, "b"));
        // Not through Paimon's catalog yet: it caches tables, and would keep the bucket count of before the ALTER.
        List<String> before = sorted("SELECT * FROM ours.`default`.t");
        sql("ALTER TABLE ours.`default`.t SET ('bucket' = '4')");

        assertThat(sorted("CALL ours.sys.rescale(`table` => 'default.t', `partition` => 'dt=x')"))
                .containsExactly("+I[Success]");

        assertThat(sameRows("t")).isEqualTo(before).hasSize(20);
        assertThat(sorted("SELECT DISTINCT bucket FROM theirs.`default`.`t$files` WHERE `partition` = '{x}'"))
                .hasSizeGreaterThan(2);
        // Paimon writes the rescaled partition (upserting a key) and we read its writes.
        sql("INSERT INTO theirs.`default`.t VALUES (0, 'paimon', 'x'), (100, 'paimon', 'x')");
        assertThat(sameRows("t")).hasSize(21).contains("+I[0, paimon, x]", "+I[100, paimon, x]");
        // Partition y keeps 2 buckets: we refuse to write it. (Paimon refuses only rows whose bucket under
        // the new count already has files, and would otherwise mix bucket counts in one partition.)
        assertThatThrownBy(() -> sql("INSERT INTO ours.`default`.t VALUES (101, 'ours', 'y')"))
                .hasStackTraceContaining("CALL sys.rescale");
    }

    @Test
    void weReadAndWriteATablePaimonRescaled() throws Exception {
        sql("CREATE TABLE theirs.`default`.p (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED)"
                + " PARTITIONED BY (dt) WITH ('bucket' = '2')");
        sql("INSERT INTO theirs.`default`.p VALUES " + values(0, 20, "a"));
        sql("INSERT INTO theirs.`default`.p VALUES " + values(0, 4, "b"));
        List<String> before = sameRows("p");
        sql("ALTER TABLE theirs.`default`.p SET ('bucket' = '3')");
        assertThatThrownBy(() -> sql("INSERT INTO ours.`default`.p VALUES (100, 'ours', 'x')"))
                .hasStackTraceContaining("written with 2 buckets").hasStackTraceContaining("'bucket' is now 3");

        tEnv.executeSql("CALL theirs.sys.rescale(`table` => 'default.p')").await();

        assertThat(sameRows("p")).isEqualTo(before).hasSize(20);
        sql("INSERT INTO ours.`default`.p VALUES (0, 'ours', 'x'), (100, 'ours', 'x'), (101, 'ours', 'y')");
        assertThat(sameRows("p")).hasSize(22).contains("+I[0, ours, x]", "+I[100, ours, x]", "+I[101, ours, y]");
        assertThat(sorted("SELECT DISTINCT bucket FROM ours.`default`.`p$files`")).hasSize(3);
    }
}
