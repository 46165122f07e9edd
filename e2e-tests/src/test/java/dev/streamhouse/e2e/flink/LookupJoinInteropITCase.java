package dev.streamhouse.e2e.flink;

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

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lookup joins through our Flink SQL against tables Apache Paimon 1.3.1 wrote (Paimon's own Flink
 * factories are hidden, so {@code 'type'='paimon'} means ours): a primary-key table joined on its key
 * and on another column, after Paimon's upserts and deletes, and an append table.
 */
class LookupJoinInteropITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension();

    @TempDir
    Path warehouse;

    private TableEnvironment sEnv;
    private PaimonOracle paimon;

    @BeforeEach
    void open() {
        sEnv = TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode()
                .withClassLoader(new WithoutPaimonFactories(getClass().getClassLoader())).build());
        sEnv.getConfig().set("parallelism.default", "1");
        sEnv.executeSql("CREATE CATALOG ours WITH ('type' = 'paimon', 'warehouse' = '" + warehouse.toUri() + "')");
        sEnv.useCatalog("ours");
        paimon = new PaimonOracle(warehouse);
        paimon.createDatabase("theirs");
        sEnv.executeSql("CREATE TEMPORARY VIEW probes AS SELECT k, r, PROCTIME() AS proc FROM "
                + "(VALUES (1, 'eu'), (2, 'us'), (3, 'eu'), (9, 'asia')) AS t(k, r)");
    }

    @AfterEach
    void close() throws Exception {
        paimon.close();
    }

    private List<String> rows(String query) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = sEnv.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        }
        out.sort(null);
        return out;
    }

    @Test
    void joinsAPrimaryKeyTablePaimonWroteAndUpdated() throws Exception {
        paimon.createTable("theirs", "dim", TableSpec.of("id", "INT NOT NULL", "name", "STRING", "region", "STRING")
                .withPrimaryKeys("id").withOption("bucket", "2"));
        paimon.write("theirs", "dim", List.of(CanonicalRow.of(1, "a", "eu"), CanonicalRow.of(2, "b", "us"),
                CanonicalRow.of(3, "c", "eu")));
        paimon.write("theirs", "dim", List.of(CanonicalRow.of(2, "b2", "eu"),
                CanonicalRow.ofKind(CanonicalRow.Kind.DELETE, 3, "c", "eu")));

        assertThat(rows("SELECT p.k, d.name FROM probes AS p JOIN theirs.dim FOR SYSTEM_TIME AS OF p.proc AS d "
                + "ON p.k = d.id")).containsExactly("+I[1, a]", "+I[2, b2]");
        assertThat(rows("SELECT p.k, d.id FROM probes AS p LEFT JOIN theirs.dim FOR SYSTEM_TIME AS OF p.proc AS d "
                + "ON p.r = d.region")).containsExactly("+I[1, 1]", "+I[1, 2]", "+I[2, null]", "+I[3, 1]",
                "+I[3, 2]", "+I[9, null]");
    }

    @Test
    void joinsAnAppendTablePaimonWrote() throws Exception {
        paimon.createTable("theirs", "events", TableSpec.of("id", "INT", "what", "STRING"));
        paimon.write("theirs", "events", List.of(CanonicalRow.of(1, "one"), CanonicalRow.of(1, "uno"),
                CanonicalRow.of(3, "three")));
        assertThat(rows("SELECT p.k, d.what FROM probes AS p JOIN theirs.events FOR SYSTEM_TIME AS OF p.proc AS d "
                + "ON p.k = d.id")).containsExactly("+I[1, one]", "+I[1, uno]", "+I[3, three]");
    }
}
