package dev.streamhouse.storage.catalog.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogException;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.testutils.TestTables;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jdbc metastore on a real SQLite database file: rows in Apache Paimon's layout, files in the warehouse. */
class JdbcCatalogTest {
    @TempDir
    Path dir;

    private String uri;
    private final List<Catalog> opened = new ArrayList<>();

    @BeforeEach
    void setUp() {
        uri = "jdbc:sqlite:" + dir.resolve("catalog.sqlite");
    }

    @AfterEach
    void closeCatalogs() {
        opened.forEach(Catalog::close);
    }

    private Catalog open(String... extra) {
        Options options = Options.of("warehouse", dir.resolve("warehouse").toString(), "metastore", "jdbc", "uri", uri);
        for (int i = 0; i < extra.length; i += 2) {
            options.set(extra[i], extra[i + 1]);
        }
        Catalog catalog = CatalogFactory.createCatalog(options);
        opened.add(catalog);
        return catalog;
    }

    @Test
    void databasesAndTablesAreRowsAndTheirFilesStayInTheWarehouse() throws Exception {
        Catalog catalog = open();
        catalog.createDatabase("db", false);
        catalog.createDatabase("db", true);
        Identifier orders = Identifier.of("db", "orders");
        catalog.createTable(orders, TestTables.simpleSchema(), false);
        catalog.createTable(orders, TestTables.simpleSchema(), true);

        assertThat(catalog.listDatabases()).containsExactly("db");
        assertThat(catalog.listTables("db")).containsExactly("orders");
        assertThat(Files.isDirectory(dir.resolve("warehouse/db.db/orders/schema"))).isTrue();
        assertThat(catalog.getTable(orders).rowType().fieldCount()).isEqualTo(TestTables.simpleSchema().fields().size());
        assertThat(rows("SELECT catalog_key, database_name, table_name FROM paimon_tables"))
                .containsExactly("jdbc|db|orders");
        assertThat(rows("SELECT catalog_key, database_name, property_key, property_value FROM paimon_database_properties"
                + " ORDER BY property_key"))
                .containsExactly("jdbc|db|exists|true", "jdbc|db|location|" + dir.resolve("warehouse/db.db"));
        assertThatThrownBy(() -> catalog.createTable(orders, TestTables.simpleSchema(), false))
                .isInstanceOf(CatalogException.TableAlreadyExist.class);
        assertThatThrownBy(() -> catalog.createDatabase("db", false))
                .isInstanceOf(CatalogException.DatabaseAlreadyExist.class);

        // another catalog on the same metastore sees the same
        Catalog again = open();
        assertThat(again.listTables("db")).containsExactly("orders");
    }

    @Test
    void alterRenameAndDropKeepRowsAndDirectoriesTogether() {
        Catalog catalog = open();
        catalog.createDatabase("db", false);
        Identifier a = Identifier.of("db", "a");
        catalog.createTable(a, TestTables.simpleSchema(), false);
        catalog.alterTable(a, List.of(SchemaChange.setOption("snapshot.num-retained.max", "70")), false);
        assertThat(catalog.getTable(a).options()).containsEntry("snapshot.num-retained.max", "70");

        Identifier b = Identifier.of("db", "b");
        catalog.renameTable(a, b, false);
        assertThat(catalog.listTables("db")).containsExactly("b");
        assertThat(Files.exists(dir.resolve("warehouse/db.db/a"))).isFalse();
        assertThat(catalog.getTable(b).options()).containsEntry("snapshot.num-retained.max", "70");
        assertThatThrownBy(() -> catalog.getTable(a)).isInstanceOf(CatalogException.TableNotExist.class);

        catalog.createTable(a, TestTables.simpleSchema(), false);
        assertThatThrownBy(() -> catalog.renameTable(a, b, false))
                .isInstanceOf(CatalogException.TableAlreadyExist.class);
        assertThat(catalog.listTables("db")).containsExactly("a", "b");

        catalog.dropTable(b, false);
        assertThat(catalog.listTables("db")).containsExactly("a");
        assertThat(Files.exists(dir.resolve("warehouse/db.db/b"))).isFalse();
        assertThatThrownBy(() -> catalog.dropDatabase("db", false, false))
                .isInstanceOf(CatalogException.DatabaseNotEmpty.class);
        catalog.dropDatabase("db", false, true);
        assertThat(catalog.listDatabases()).isEmpty();
        assertThat(Files.exists(dir.resolve("warehouse/db.db"))).isFalse();
    }

    @Test
    void catalogKeysSeparateCatalogsInOneDatabase() throws Exception {
        Catalog first = open("catalog-key", "first");
        Catalog second = open("catalog-key", "second", "warehouse", dir.resolve("warehouse2").toString());
        first.createDatabase("db", false);
        first.createTable(Identifier.of("db", "t"), TestTables.simpleSchema(), false);
        assertThat(second.listDatabases()).isEmpty();
        second.createDatabase("db", false);
        assertThat(second.listTables("db")).isEmpty();
        assertThat(rows("SELECT DISTINCT catalog_key FROM paimon_database_properties ORDER BY catalog_key"))
                .containsExactly("first", "second");
    }

    @Test
    void aRegisteredTableWithoutItsDirectoryIsNamedAndCanBeDropped() throws Exception {
        Catalog catalog = open();
        catalog.createDatabase("db", false);
        Identifier t = Identifier.of("db", "t");
        catalog.createTable(t, TestTables.simpleSchema(), false);
        deleteRecursively(dir.resolve("warehouse/db.db/t"));

        assertThatThrownBy(() -> catalog.getTable(t))
                .hasMessageContaining("'db.t' is registered in the JDBC metastore jdbc:sqlite:")
                .hasMessageContaining("catalog-key 'jdbc'")
                .hasMessageContaining("DROP TABLE");
        catalog.dropTable(t, false);
        assertThat(catalog.listTables("db")).isEmpty();
    }

    @Test
    void anUnregisteredTableDirectoryIsNotTakenOver() {
        Catalog files = CatalogFactory.createCatalog(Options.of("warehouse", dir.resolve("warehouse").toString()));
        files.createDatabase("db", false);
        files.createTable(Identifier.of("db", "t"), TestTables.simpleSchema(), false);

        Catalog catalog = open();
        catalog.createDatabase("db", false);
        assertThatThrownBy(() -> catalog.createTable(Identifier.of("db", "t"), TestTables.simpleSchema(), false))
                .hasMessageContaining("already holds a table that is not registered in the JDBC metastore");
        assertThat(catalog.listTables("db")).isEmpty();
    }

    @Test
    void anUnreachableMetastoreOrAMissingDriverIsNamed() {
        uri = "jdbc:sqlite:" + dir.resolve("no-such-dir/catalog.sqlite");
        assertThatThrownBy(this::open)
                .hasMessageContaining("Cannot open the JDBC metastore jdbc:sqlite:" + dir.resolve("no-such-dir"))
                .hasMessageContaining("check 'uri'");
        uri = "jdbc:nodriver://localhost/x?password=secret";
        assertThatThrownBy(this::open)
                .hasMessageContaining("the JDBC metastore jdbc:nodriver://localhost/x (catalog-key 'jdbc')")
                .hasMessageContaining("JDBC driver jar")
                .hasMessageNotContaining("secret");
        assertThatThrownBy(() -> CatalogFactory.createCatalog(Options.of("warehouse", dir.toString(), "metastore", "jdbc")))
                .hasMessageContaining("needs option 'uri'");
    }

    @Test
    void theFilesystemMetastoreRefusesJdbcSettings() {
        assertThatThrownBy(() -> CatalogFactory.createCatalog(Options.of("warehouse", dir.toString(),
                "uri", uri, "jdbc.user", "me")))
                .hasMessageContaining("[uri, user]".replace("user", "jdbc.user"))
                .hasMessageContaining("'metastore' is 'filesystem'");
        assertThatThrownBy(() -> CatalogFactory.createCatalog(Options.of("warehouse", dir.toString(),
                "lock.enabled", "true")))
                .hasMessageContaining("[lock.enabled]");
        CatalogFactory.createCatalog(Options.of("warehouse", dir.toString(), "lock.enabled", "false")).close();
    }

    @Test
    void withTheLockEnabledTheLockTableIsCreatedInPaimonsLayout() throws Exception {
        Catalog catalog = open("lock.enabled", "true");
        catalog.createDatabase("db", false);
        catalog.createTable(Identifier.of("db", "t"), TestTables.simpleSchema(), false);
        assertThat(rows("SELECT COUNT(*) FROM paimon_distributed_locks")).containsExactly("0");
    }

    private List<String> rows(String query) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(uri); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(query)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> values = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    values.add(rs.getString(i));
                }
                out.add(String.join("|", values));
            }
        }
        return out;
    }

    private static void deleteRecursively(Path path) throws Exception {
        try (var walk = Files.walk(path)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
