package dev.streamhouse.storage.catalog;

import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.schema.SchemaChangeException;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FileSystemCatalogTest {
    @TempDir
    java.nio.file.Path warehouse;

    private Catalog catalog;

    @BeforeEach
    void open() {
        catalog = CatalogFactory.createCatalog(Options.of("warehouse", warehouse.toString()));
    }

    @Test
    void warehouseIsRequired() {
        assertThatThrownBy(() -> CatalogFactory.createCatalog(new Options()))
                .hasMessageContaining("'warehouse'");
    }

    @Test
    void databasesAreDirectoriesWithDbSuffix() {
        catalog.createDatabase("db1", false);
        catalog.createDatabase("db2", false);
        catalog.createDatabase("db1", true);
        assertThat(Files.isDirectory(warehouse.resolve("db1.db"))).isTrue();
        assertThat(catalog.listDatabases()).containsExactly("db1", "db2");
        assertThatThrownBy(() -> catalog.createDatabase("db1", false))
                .isInstanceOf(CatalogException.DatabaseAlreadyExist.class).hasMessageContaining("db1");
        catalog.dropDatabase("db2", false, false);
        assertThat(catalog.listDatabases()).containsExactly("db1");
        catalog.dropDatabase("nope", true, false);
        assertThatThrownBy(() -> catalog.dropDatabase("nope", false, false))
                .isInstanceOf(CatalogException.DatabaseNotExist.class);
    }

    @Test
    void tablesAreCreatedListedLoadedAndDropped() {
        catalog.createDatabase("db", false);
        Identifier id = Identifier.of("db", "orders");
        catalog.createTable(id, TestTables.simpleSchema(), false);
        catalog.createTable(id, TestTables.simpleSchema(), true);
        assertThatThrownBy(() -> catalog.createTable(id, TestTables.simpleSchema(), false))
                .isInstanceOf(CatalogException.TableAlreadyExist.class).hasMessageContaining("db.orders");
        assertThat(Files.exists(warehouse.resolve("db.db/orders/schema/schema-0"))).isTrue();
        assertThat(catalog.listTables("db")).containsExactly("orders");

        Table t = catalog.getTable(id);
        assertThat(t.fullName()).isEqualTo("db.orders");
        assertThat(t.rowType().fieldNames()).containsExactly("id", "name", "dt");
        assertThat(t.partitionKeys()).containsExactly("dt");

        assertThatThrownBy(() -> catalog.dropDatabase("db", false, false))
                .isInstanceOf(CatalogException.DatabaseNotEmpty.class);
        catalog.dropTable(id, false);
        assertThat(catalog.listTables("db")).isEmpty();
        assertThatThrownBy(() -> catalog.getTable(id)).isInstanceOf(CatalogException.TableNotExist.class);
        assertThatThrownBy(() -> catalog.createTable(Identifier.of("missing", "t"), TestTables.simpleSchema(), false))
                .isInstanceOf(CatalogException.DatabaseNotExist.class);
    }

    @Test
    void cascadeDropRemovesTables() {
        catalog.createDatabase("db", false);
        catalog.createTable(Identifier.of("db", "a"), TestTables.simpleSchema(), false);
        catalog.dropDatabase("db", false, true);
        assertThat(catalog.listDatabases()).isEmpty();
        assertThat(Files.exists(warehouse.resolve("db.db"))).isFalse();
    }

    @Test
    void directoriesWithoutSchemaAreNotTables() throws Exception {
        catalog.createDatabase("db", false);
        Files.createDirectories(warehouse.resolve("db.db/not_a_table/snapshot"));
        assertThat(catalog.listTables("db")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "..", "a/b", "a\\b", "../escape", "x..y", "tab\tname", "nul\u0000", ".hidden"})
    void namesThatCouldEscapeTheWarehouseAreRejected(String name) {
        assertThatThrownBy(() -> catalog.createDatabase(name, false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Cannot use");
        catalog.createDatabase("db", true);
        assertThatThrownBy(() -> catalog.createTable(Identifier.of("db", name), TestTables.simpleSchema(), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Cannot use");
        try (var files = Files.walk(warehouse)) {
            assertThat(files.filter(p -> !p.equals(warehouse) && !p.equals(warehouse.resolve("db.db")))).isEmpty();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void reservedNamesAreRejected() {
        assertThatThrownBy(() -> catalog.createDatabase("sys", false)).hasMessageContaining("reserved");
        catalog.createDatabase("db", false);
        assertThatThrownBy(() -> catalog.createTable(Identifier.of("db", "t$snapshots"),
                Schema.newBuilder().column("a", DataTypes.INT()).build(), false)).hasMessageContaining("$");
    }

    @Test
    void relativeWarehouseIsResolvedAgainstTheWorkingDirectory() throws Exception {
        java.nio.file.Path relative = java.nio.file.Paths.get("target", "tmp", "relative-wh-" + System.nanoTime());
        FileSystemCatalog c = (FileSystemCatalog) CatalogFactory.createCatalog(Options.of("warehouse", relative.toString()));
        assertThat(c.warehouse().path()).isEqualTo(relative.toAbsolutePath().normalize().toString());
        assertThat(Files.isDirectory(relative)).isTrue();
        Files.delete(relative);
    }

    @Test
    void alterTableWritesANewSchemaVersionThatNewLoadsSee() throws Exception {
        catalog.createDatabase("db", false);
        Identifier id = Identifier.of("db", "orders");
        catalog.createTable(id, TestTables.simpleSchema(), false);
        Table before = catalog.getTable(id);
        TestTables.write(before, TestTables.rows(0, 2, 1));

        catalog.alterTable(id, List.of(SchemaChange.addColumn("qty", DataTypes.BIGINT()),
                SchemaChange.updateColumnType("id", DataTypes.BIGINT())), false);
        assertThat(Files.exists(warehouse.resolve("db.db/orders/schema/schema-1"))).isTrue();
        assertThat(before.rowType().fieldNames()).containsExactly("id", "name", "dt");
        Table after = catalog.getTable(id);
        assertThat(after.schema().id()).isEqualTo(1);
        assertThat(after.rowType().fieldNames()).containsExactly("id", "name", "dt", "qty");
        assertThat(TestTables.readAll(after)).containsExactly("+I(0, name-0, d0, null)", "+I(1, name-1, d0, null)");

        assertThatThrownBy(() -> catalog.alterTable(id, List.of(SchemaChange.dropColumn("dt")), false))
                .isInstanceOf(SchemaChangeException.class)
                .hasMessageStartingWith("Cannot drop column 'dt' of table db.orders: it is a partition key");
        Identifier missing = Identifier.of("db", "missing");
        catalog.alterTable(missing, List.of(SchemaChange.addColumn("x", DataTypes.INT())), true);
        assertThatThrownBy(() -> catalog.alterTable(missing, List.of(SchemaChange.addColumn("x", DataTypes.INT())), false))
                .isInstanceOf(CatalogException.TableNotExist.class);
        assertThat(Files.exists(warehouse.resolve("db.db/missing"))).isFalse();
    }

    @Test
    void renameTableMovesItsDirectoryWithinTheDatabase() throws Exception {
        catalog.createDatabase("db", false);
        catalog.createDatabase("other", false);
        Identifier from = Identifier.of("db", "a");
        Identifier to = Identifier.of("db", "b");
        catalog.createTable(from, TestTables.simpleSchema(), false);
        TestTables.write(catalog.getTable(from), TestTables.rows(0, 3, 1));

        catalog.renameTable(from, to, false);
        assertThat(catalog.listTables("db")).containsExactly("b");
        assertThat(catalog.tableExists(from)).isFalse();
        Table renamed = catalog.getTable(to);
        assertThat(renamed.fullName()).isEqualTo("db.b");
        assertThat(TestTables.readAll(renamed)).hasSize(3);

        catalog.renameTable(from, Identifier.of("db", "c"), true);
        assertThatThrownBy(() -> catalog.renameTable(from, Identifier.of("db", "c"), false))
                .isInstanceOf(CatalogException.TableNotExist.class).hasMessageContaining("db.a");
        catalog.createTable(from, TestTables.simpleSchema(), false);
        assertThatThrownBy(() -> catalog.renameTable(from, to, false))
                .isInstanceOf(CatalogException.TableAlreadyExist.class).hasMessageContaining("db.b");
        assertThatThrownBy(() -> catalog.renameTable(to, Identifier.of("other", "b"), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("within their database");
        assertThatThrownBy(() -> catalog.renameTable(to, Identifier.of("db", "../escape"), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Cannot use table name");
        Files.createDirectories(warehouse.resolve("db.db/occupied"));
        assertThatThrownBy(() -> catalog.renameTable(to, Identifier.of("db", "occupied"), false))
                .isInstanceOf(CatalogException.class).hasMessageContaining("already exists (but is not a table)");
        assertThat(TestTables.readAll(catalog.getTable(to))).hasSize(3);
    }
}
