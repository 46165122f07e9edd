package dev.streamhouse.e2e.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.e2e.oracle.Canon;
import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.e2e.oracle.TestData;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.storage.catalog.Identifier;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One jdbc metastore (a database of a real MariaDB server) and one warehouse shared by our catalog and
 * Apache Paimon 1.3.1's JdbcCatalog: each lists, reads and writes the databases and tables the other
 * registered, and sees the other's renames and drops.
 *
 * <p>Not SQLite: Paimon's catalog leaves a result set open on its connection when it opens (the check
 * for its tables), and on a SQLite file that open read blocks every other connection's writes (or, in
 * WAL mode, pins Paimon to a stale view), so a SQLite file cannot be shared with a running Paimon catalog.
 */
class JdbcCatalogInteropTest {
    private static final String DB = "shared";
    private static final AtomicInteger METASTORES = new AtomicInteger();

    @RegisterExtension
    static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir
    Path dir;

    private OurStore ours;
    private PaimonOracle paimon;

    @BeforeEach
    void open() {
        String database = "paimon_catalog_" + METASTORES.incrementAndGet();
        MARIADB.execute("CREATE DATABASE " + database);
        Map<String, String> metastore = Map.of("metastore", "jdbc", "uri", MARIADB.jdbcUrl(database),
                "jdbc.user", "root", "jdbc.password", "", "catalog-key", "lakehouse");
        Path warehouse = dir.resolve("warehouse");
        ours = new OurStore(warehouse, metastore);
        paimon = new PaimonOracle(warehouse.toAbsolutePath().toString(), metastore);
    }

    @AfterEach
    void close() throws Exception {
        paimon.close();
        ours.close();
    }

    @Test
    void paimonListsAndReadsWhatWeRegistered() throws Exception {
        ours.createDatabase(DB);
        ours.createTable(DB, "ours", TestData.allTypesTable());
        ours.write(DB, "ours", TestData.allTypesRows(0, 20));

        assertThat(paimon.catalog().listDatabases()).contains(DB);
        assertThat(paimon.catalog().listTables(DB)).containsExactly("ours");
        Canon.assertSameRows("Paimon reading our table through the shared metastore", TestData.allTypesRows(0, 20),
                paimon.readAll(DB, "ours"));

        paimon.write(DB, "ours", TestData.allTypesRows(20, 5));
        Canon.assertSameRows(TestData.allTypesRows(0, 25), ours.readAll(DB, "ours"));
    }

    @Test
    void weListAndReadWhatPaimonRegistered() throws Exception {
        paimon.createDatabase(DB);
        paimon.createTable(DB, "theirs", TestData.allTypesTable());
        paimon.write(DB, "theirs", TestData.allTypesRows(0, 20));

        assertThat(ours.catalog().listDatabases()).contains(DB);
        assertThat(ours.catalog().listTables(DB)).containsExactly("theirs");
        List<CanonicalRow> rows = ours.readAll(DB, "theirs");
        Canon.assertSameRows("our reading of Paimon's table through the shared metastore",
                TestData.allTypesRows(0, 20), rows);
    }

    @Test
    void renamesAndDropsOfEachSideAreSeenByTheOther() throws Exception {
        ours.createDatabase(DB);
        ours.createTable(DB, "a", TestData.allTypesTable());
        ours.write(DB, "a", TestData.allTypesRows(0, 10));
        ours.catalog().renameTable(Identifier.of(DB, "a"), Identifier.of(DB, "b"), false);
        assertThat(paimon.catalog().listTables(DB)).containsExactly("b");
        Canon.assertSameRows(TestData.allTypesRows(0, 10), paimon.readAll(DB, "b"));

        paimon.catalog().renameTable(org.apache.paimon.catalog.Identifier.create(DB, "b"),
                org.apache.paimon.catalog.Identifier.create(DB, "c"), false);
        assertThat(ours.catalog().listTables(DB)).containsExactly("c");
        Canon.assertSameRows(TestData.allTypesRows(0, 10), ours.readAll(DB, "c"));

        paimon.catalog().dropTable(org.apache.paimon.catalog.Identifier.create(DB, "c"), false);
        assertThat(ours.catalog().listTables(DB)).isEmpty();
        ours.createTable(DB, "d", TestData.allTypesTable());
        ours.catalog().dropTable(Identifier.of(DB, "d"), false);
        assertThat(paimon.catalog().listTables(DB)).isEmpty();

        paimon.catalog().dropDatabase(DB, false, true);
        assertThat(ours.catalog().listDatabases()).doesNotContain(DB);
    }
}
