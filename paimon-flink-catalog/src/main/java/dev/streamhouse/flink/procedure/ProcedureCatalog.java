package dev.streamhouse.flink.procedure;

import dev.streamhouse.storage.table.Table;

import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;

/**
 * What a procedure needs of the catalog it is called in: its name and default database for resolving
 * table names, and the storage tables themselves. The catalog implements it, so procedures do not
 * depend on the catalog class.
 */
public interface ProcedureCatalog {

    /** The catalog's name, e.g. {@code paimon}. */
    String name();

    /** The database a table name without one refers to. */
    String defaultDatabase();

    /** The data table at {@code path}. */
    Table table(ObjectPath path) throws TableNotExistException;

    /** The tables (and views) of a database, for procedures that accept {@code 'db.*'}. */
    java.util.List<String> listTables(String databaseName) throws DatabaseNotExistException;
}
