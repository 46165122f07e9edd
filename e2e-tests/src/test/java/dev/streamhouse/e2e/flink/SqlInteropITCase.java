package dev.streamhouse.e2e.flink;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.e2e.oracle.TableSpec;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables created and filled through our Flink SQL are read by Apache Paimon's Java API, and tables
 * Paimon wrote are read (and continued) through our Flink SQL. Paimon's own Flink factories are hidden
 * from Flink so {@code 'type'='paimon'} means ours.
 */
class SqlInteropITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension();

    @TempDir
    Path warehouse;

    private TableEnvironment tEnv;
    private PaimonOracle paimon;

    @BeforeEach
    void open() {
        tEnv = TableEnvironment.create(EnvironmentSettings.newInstance().inBatchMode()
                .withClassLoader(new WithoutPaimonFactories(getClass().getClassLoader())).build());
        tEnv.getConfig().set("parallelism.default", "2");
        tEnv.executeSql("CREATE CATALOG ours WITH ('type' = 'paimon', 'warehouse' = '" + warehouse.toUri() + "')");
        tEnv.useCatalog("ours");
        paimon = new PaimonOracle(warehouse);
    }

    @AfterEach
    void close() throws Exception {
        paimon.close();
    }

    private void sql(String statement) throws Exception {
        tEnv.executeSql(statement).await();
    }

    private List<String> rows(String query) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = tEnv.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        }
        out.sort(null);
        return out;
    }

    @Test
    void paimonReadsWhatOurSqlWrote() throws Exception {
        sql("CREATE TABLE orders (id BIGINT, customer STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3), dt DATE, "
                + "PRIMARY KEY (dt, id) NOT ENFORCED) PARTITIONED BY (dt) WITH ('bucket' = '2')");
        sql("INSERT INTO orders VALUES (1, 'alice', 12.50, TIMESTAMP '2026-11-29 10:00:00.123', DATE '2026-11-29'), "
                + "(2, 'bob', 7.25, TIMESTAMP '2026-11-29 11:00:00', DATE '2026-11-29'), "
                + "(3, CAST(NULL AS STRING), 1.00, TIMESTAMP '2026-11-30 00:00:00', DATE '2026-11-30')");
        sql("INSERT INTO orders VALUES (2, 'bob', 8.00, TIMESTAMP '2026-11-29 12:00:00', DATE '2026-11-29')");
        sql("DELETE FROM orders WHERE id = 1");

        List<CanonicalRow> expected = List.of(
                CanonicalRow.of(2L, "bob", new BigDecimal("8.00"), LocalDateTime.of(2026, 11, 29, 12, 0), LocalDate.of(2026, 11, 29)),
                CanonicalRow.of(3L, null, new BigDecimal("1.00"), LocalDateTime.of(2026, 11, 30, 0, 0), LocalDate.of(2026, 11, 30)));
        Canon.assertSameRowsIgnoringKind("Paimon reading the table our SQL wrote", expected,
                paimon.readAll("default", "orders"));
    }

    @Test
    void ourSqlReadsAndContinuesWhatPaimonWrote() throws Exception {
        paimon.createDatabase("theirs");
        TableSpec spec = TableSpec.of("id", "INT", "name", "STRING", "dt", "STRING")
                .withPartitionKeys("dt").withPrimaryKeys("dt", "id").withOption("bucket", "3");
        paimon.createTable("theirs", "t", spec);
        paimon.write("theirs", "t", List.of(CanonicalRow.of(1, "a", "x"), CanonicalRow.of(2, "b", "x"),
                CanonicalRow.of(3, "c", "y")));
        assertThat(rows("SELECT * FROM theirs.t")).containsExactly("+I[1, a, x]", "+I[2, b, x]", "+I[3, c, y]");
        assertThat(rows("SELECT name FROM theirs.t WHERE dt = 'y'")).containsExactly("+I[c]");

        sql("INSERT INTO theirs.t VALUES (2, 'B', 'x'), (4, 'd', 'y')");
        sql("ALTER TABLE theirs.t ADD note STRING");
        sql("INSERT INTO theirs.t VALUES (5, 'e', 'z', 'with note')");
        assertThat(rows("SELECT id, name, note FROM theirs.t"))
                .containsExactly("+I[1, a, null]", "+I[2, B, null]", "+I[3, c, null]", "+I[4, d, null]",
                        "+I[5, e, with note]");
        Canon.assertSameRowsIgnoringKind("Paimon after our writes and schema change", List.of(
                        CanonicalRow.of(1, "a", "x", null), CanonicalRow.of(2, "B", "x", null),
                        CanonicalRow.of(3, "c", "y", null), CanonicalRow.of(4, "d", "y", null),
                        CanonicalRow.of(5, "e", "z", "with note")),
                paimon.readAll("theirs", "t"));
    }
}
