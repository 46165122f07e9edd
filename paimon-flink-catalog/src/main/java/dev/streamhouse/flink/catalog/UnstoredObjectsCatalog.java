package dev.streamhouse.flink.catalog;

import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;

import java.util.List;

/**
 * The Flink catalog objects a filesystem warehouse has no place for: functions and statistics. Lookups
 * find none (statistics are UNKNOWN, so planners estimate); storing any is refused with a reason.
 */
abstract class UnstoredObjectsCatalog extends AbstractCatalog {

    UnstoredObjectsCatalog(String name, String defaultDatabase) {
        super(name, defaultDatabase);
    }

    @Override
    public List<String> listFunctions(String dbName) throws DatabaseNotExistException {
        requireDatabase(dbName);
        return List.of();
    }

    @Override
    public CatalogFunction getFunction(ObjectPath functionPath) throws FunctionNotExistException {
        throw new FunctionNotExistException(getName(), functionPath);
    }

    @Override
    public boolean functionExists(ObjectPath functionPath) {
        return false;
    }

    @Override
    public void createFunction(ObjectPath functionPath, CatalogFunction function, boolean ignoreIfExists) {
        throw new CatalogException("Cannot create function " + quoted(functionPath) + ": a filesystem catalog "
                + "stores no functions; use CREATE TEMPORARY FUNCTION instead");
    }

    @Override
    public void alterFunction(ObjectPath functionPath, CatalogFunction newFunction, boolean ignoreIfNotExists)
            throws FunctionNotExistException {
        if (ignoreIfNotExists) {
            return;
        }
        throw new FunctionNotExistException(getName(), functionPath);
    }

    @Override
    public void dropFunction(ObjectPath functionPath, boolean ignoreIfNotExists) throws FunctionNotExistException {
        if (ignoreIfNotExists) {
            return;
        }
        throw new FunctionNotExistException(getName(), functionPath);
    }

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath tablePath) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath tablePath) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public CatalogTableStatistics getPartitionStatistics(ObjectPath tablePath, CatalogPartitionSpec partitionSpec) {
        return CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getPartitionColumnStatistics(ObjectPath tablePath,
            CatalogPartitionSpec partitionSpec) {
        return CatalogColumnStatistics.UNKNOWN;
    }

    @Override
    public void alterTableStatistics(ObjectPath tablePath, CatalogTableStatistics tableStatistics,
            boolean ignoreIfNotExists) {
        throw statisticsNotStored(tablePath);
    }

    @Override
    public void alterTableColumnStatistics(ObjectPath tablePath, CatalogColumnStatistics columnStatistics,
            boolean ignoreIfNotExists) {
        throw statisticsNotStored(tablePath);
    }

    @Override
    public void alterPartitionStatistics(ObjectPath tablePath, CatalogPartitionSpec partitionSpec,
            CatalogTableStatistics partitionStatistics, boolean ignoreIfNotExists) {
        throw statisticsNotStored(tablePath);
    }

    @Override
    public void alterPartitionColumnStatistics(ObjectPath tablePath, CatalogPartitionSpec partitionSpec,
            CatalogColumnStatistics columnStatistics, boolean ignoreIfNotExists) {
        throw statisticsNotStored(tablePath);
    }

    private CatalogException statisticsNotStored(ObjectPath path) {
        return new CatalogException("Cannot store statistics of " + quoted(path) + ": ANALYZE TABLE is not "
                + "supported by this catalog yet");
    }

    void requireDatabase(String databaseName) throws DatabaseNotExistException {
        if (!databaseExists(databaseName)) {
            throw new DatabaseNotExistException(getName(), databaseName);
        }
    }

    String quoted(ObjectPath path) {
        return "`" + getName() + "`.`" + path.getDatabaseName() + "`.`" + path.getObjectName() + "`";
    }
}
