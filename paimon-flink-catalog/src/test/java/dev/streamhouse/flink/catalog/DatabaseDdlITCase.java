package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;

import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.junit.jupiter.api.Test;

/** CREATE / DROP / ALTER / SHOW DATABASE. */
class DatabaseDdlITCase extends CatalogITCaseBase {

    @Test
    void createListUseAndDrop() {
        sql("CREATE DATABASE sales");
        sql("CREATE DATABASE IF NOT EXISTS sales");
        assertThat(sortedRows("SHOW DATABASES")).containsExactly("+I[default]", "+I[sales]");
        sql("USE sales");
        assertThat(tEnv.getCurrentDatabase()).isEqualTo("sales");
        sql("USE `default`");
        sql("DROP DATABASE sales");
        sql("DROP DATABASE IF EXISTS sales");
        assertThat(rows("SHOW DATABASES")).containsExactly("+I[default]");
    }

    @Test
    void existsAndGetHaveNoMetadata() throws Exception {
        sql("CREATE DATABASE sales");
        Catalog catalog = tEnv.getCatalog(CATALOG).orElseThrow();
        assertThat(catalog.databaseExists("sales")).isTrue();
        assertThat(catalog.databaseExists("nope")).isFalse();
        assertThat(catalog.databaseExists("bad/name")).isFalse();
        CatalogDatabase db = catalog.getDatabase("sales");
        assertThat(db.getProperties()).isEmpty();
        assertThat(db.getComment()).isNull();
        assertThatThrownBy(() -> catalog.getDatabase("nope")).isInstanceOf(DatabaseNotExistException.class);
    }

    @Test
    void existingDatabaseIsAnError() {
        sql("CREATE DATABASE sales");
        assertThatThrownBy(() -> sql("CREATE DATABASE sales"))
                .hasStackTraceContaining("Database sales already exists");
    }

    @Test
    void dropRestrictRefusesANonEmptyDatabaseAndCascadeDropsTables() {
        sql("CREATE DATABASE sales");
        sql("CREATE TABLE sales.orders (id INT)");
        assertThatThrownBy(() -> sql("DROP DATABASE sales RESTRICT"))
                .hasStackTraceContaining("Cannot drop database 'sales': it still has 1 table(s)");
        assertThatThrownBy(() -> sql("DROP DATABASE sales"))
                .hasStackTraceContaining("it still has 1 table(s)");
        sql("DROP DATABASE sales CASCADE");
        assertThat(rows("SHOW DATABASES")).containsExactly("+I[default]");
    }

    @Test
    void droppingAMissingDatabaseIsAnError() {
        assertThatThrownBy(() -> sql("DROP DATABASE nope")).hasStackTraceContaining("nope");
    }

    @Test
    void commentsPropertiesAndAlterAreRefusedNotDropped() {
        assertThatThrownBy(() -> sql("CREATE DATABASE c COMMENT 'our sales'"))
                .hasStackTraceContaining("Cannot create database 'c' with comment 'our sales'")
                .hasStackTraceContaining("stores no database metadata");
        assertThatThrownBy(() -> sql("CREATE DATABASE p WITH ('owner' = 'me')"))
                .hasStackTraceContaining("Cannot create database 'p' with properties {owner=me}");
        assertThat(rows("SHOW DATABASES")).containsExactly("+I[default]");
        sql("CREATE DATABASE sales");
        assertThatThrownBy(() -> sql("ALTER DATABASE sales SET ('owner' = 'me')"))
                .hasStackTraceContaining("Cannot alter database 'sales'");
    }

    @Test
    void invalidNamesAreExplained() {
        assertThatThrownBy(() -> sql("CREATE DATABASE `sys`"))
                .hasStackTraceContaining("Cannot use database name 'sys'");
        assertThatThrownBy(() -> sql("CREATE DATABASE `a/b`"))
                .hasStackTraceContaining("must not contain path separators");
    }
}
