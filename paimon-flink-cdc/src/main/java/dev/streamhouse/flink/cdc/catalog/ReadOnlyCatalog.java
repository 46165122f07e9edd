package dev.streamhouse.flink.cdc.catalog;

import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;

import java.util.List;

/**
 * A catalog that only reads another system's metadata: every change (databases, tables, partitions,
 * functions, statistics) is refused with a message naming the catalog and the object, and lookups of
 * what such a catalog has none of (functions, partitions, statistics) find nothing. Subclasses list
 * databases and tables and return them.
 */
abstract class ReadOnlyCatalog implements Catalog {
    private final String name;
    private final String defaultDatabase;

    /** @param defaultDatabase the database {@code USE CATALOG} makes current; may be null */
    ReadOnlyCatalog(String name, String defaultDatabase) {
        this.name = name;
        this.defaultDatabase = defaultDatabase;
    }

    String name() {
        return name;
    }

    /** Why this catalog cannot change anything, completing "Cannot ... : catalog 'c' ...". */
    abstract String readOnlyReason();

    private CatalogException readOnly(String what) {
        return new CatalogException("Cannot " + what + ": catalog '" + name + "' " + readOnlyReason());
    }

    private String quoted(ObjectPath path) {
        return "`" + name + "`.`" + path.getDatabaseName() + "`.`" + path.getObjectName() + "`";
    }

    /** @throws DatabaseNotExistException when the database does not exist */
    void requireDatabase(String database) throws DatabaseNotExistException {
        if (!databaseExists(database)) {
            throw new DatabaseNotExistException(name, database);
        }
    }

    /** @throws TableNotExistException when the table does not exist */
    void requireTable(ObjectPath path) throws TableNotExistException {
        if (!tableExists(path)) {
            throw new TableNotExistException(name, path);
        }
    }

    @Override
    public String getDefaultDatabase() {
        return defaultDatabase;
    }

    @Override
    public void createDatabase(String database, CatalogDatabase db, boolean ignoreIfExists) {
        throw readOnly("create database `" + name + "`.`" + database + "`");
    }

    @Override
    public void dropDatabase(String database, boolean ignoreIfNotExists, boolean cascade) {
        throw readOnly("drop database `" + name + "`.`" + database + "`");
    }

    @Override
    public void alterDatabase(String database, CatalogDatabase newDatabase, boolean ignoreIfNotExists) {
        throw readOnly("alter database `" + name + "`.`" + database + "`");
    }

    @Override
    public List<String> listViews(String database) throws DatabaseNotExistException {
        requireDatabase(database);
        return List.of();
    }

    @Override
    public void dropTable(ObjectPath path, boolean ignoreIfNotExists) {
        throw readOnly("drop table " + quoted(path));
    }

    @Override
    public void renameTable(ObjectPath path, String newTableName, boolean ignoreIfNotExists) {
        throw readOnly("rename table " + quoted(path));
    }

    @Override
    public void createTable(ObjectPath path, CatalogBaseTable table, boolean ignoreIfExists) {
        throw readOnly("create table " + quoted(path));
    }

    @Override
    public void alterTable(ObjectPath path, CatalogBaseTable newTable, boolean ignoreIfNotExists) {
        throw readOnly("alter table " + quoted(path));
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path)
            throws TableNotExistException, TableNotPartitionedException {
        requireTable(path);
        throw new TableNotPartitionedException(name, path);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path, CatalogPartitionSpec spec)
            throws TableNotExistException, TableNotPartitionedException {
        return listPartitions(path);
    }

    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(ObjectPath path, List<Expression> filters)
            throws TableNotExistException, TableNotPartitionedException {
        return listPartitions(path);
    }

    @Override
    public CatalogPartition getPartition(ObjectPath path, CatalogPartitionSpec spec) throws PartitionNotExistException {
        throw new PartitionNotExistException(name, path, spec);
    }

    @Override
    public boolean partitionExists(ObjectPath path, CatalogPartitionSpec spec) {
        return false;
    }

    @Override
    public void createPartition(ObjectPath path, CatalogPartitionSpec spec, CatalogPartition partition,
            boolean ignoreIfExists) {
        throw readOnly("create a partition of table " + quoted(path));
    }

    @Override
    public void dropPartition(ObjectPath path, CatalogPartitionSpec spec, boolean ignoreIfNotExists) {
        throw readOnly("drop a partition of table " + quoted(path));
    }

    @Override
    public void alterPartition(ObjectPath path, CatalogPartitionSpec spec, CatalogPartition newPartition,
            boolean ignoreIfNotExists) {
        throw readOnly("alter a partition of table " + quoted(path));
    }

    @Override
    public List<String> listFunctions(String database) throws DatabaseNotExistException {
        requireDatabase(database);
        return List.of();
    }

    @Override
    public CatalogFunction getFunction(ObjectPath path) throws FunctionNotExistException {
        throw new FunctionNotExistException(name, path);
    }

    @Override
    public boolean functionExists(ObjectPath path) {
        return false;
    }

    @Override
    public void createFunction(ObjectPath path, CatalogFunction function, boolean ignoreIfExists) {
        throw readOnly("create function " + quoted(path) + " (CREATE TEMPORARY FUNCTION needs no catalog)");
    }

    @Override
    public void alterFunction(ObjectPath path, CatalogFunction newFunction, boolean ignoreIfNotExists) {
        throw readOnly("alter function " + quoted(path));
    }

    @Override
    public void dropFunction(ObjectPath path, boolean ignoreIfNotExists) {
        throw readOnly("drop function " + quoted(path));
    }

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath path) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath path) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public CatalogTableStatistics getPartitionStatistics(ObjectPath path, CatalogPartitionSpec spec) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getPartitionColumnStatistics(ObjectPath path, CatalogPartitionSpec spec) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public void alterTableStatistics(ObjectPath path, CatalogTableStatistics statistics, boolean ignoreIfNotExists) {
        throw readOnly("store statistics of table " + quoted(path));
    }

    @Override
    public void alterTableColumnStatistics(ObjectPath path, CatalogColumnStatistics statistics,
            boolean ignoreIfNotExists) {
        throw readOnly("store column statistics of table " + quoted(path));
    }

    @Override
    public void alterPartitionStatistics(ObjectPath path, CatalogPartitionSpec spec, CatalogTableStatistics statistics,
            boolean ignoreIfNotExists) {
        throw readOnly("store partition statistics of table " + quoted(path));
    }

    @Override
    public void alterPartitionColumnStatistics(ObjectPath path, CatalogPartitionSpec spec,
            CatalogColumnStatistics statistics, boolean ignoreIfNotExists) {
        throw readOnly("store partition column statistics of table " + quoted(path));
    }
}
