package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.flink.catalog.alter.TableChangeTranslator;
import dev.streamhouse.flink.catalog.system.SystemCatalogTable;
import dev.streamhouse.storage.table.system.SystemTables;
import dev.streamhouse.flink.procedure.ProcedureCatalog;
import dev.streamhouse.flink.procedure.Procedures;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.table.Table;

import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogBaseTable;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.TableChange;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotPartitionedException;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.procedures.Procedure;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Flink's view of a warehouse: databases and tables of the storage {@link Catalog}, system tables
 * {@code t$snapshots} etc., partitions with statistics from the manifests, and time travel
 * ({@code FOR SYSTEM_TIME AS OF} becomes option {@code scan.timestamp-millis}).
 *
 * <p>A filesystem catalog stores no metadata besides directories and table files: databases have no
 * comment or properties, and there are no views, functions or statistics. Asking to store any of them
 * fails with a message saying so rather than dropping it. {@code ALTER TABLE}, {@code RENAME TO} and
 * {@code DROP PARTITION} are validated here and carried out by a {@link StorageEvolution}.
 *
 * <p>Errors of the storage layer (invalid names, invalid schemas) surface as {@link CatalogException}s
 * with the storage's message, which names the offending database, table, column or option.
 */
public class FlinkCatalog extends UnstoredObjectsCatalog implements ProcedureCatalog {
    private final Catalog storage;
    private final Map<String, String> tableDefaults;
    private final StorageEvolution evolution;
    private final boolean noTablesInDefaultDatabase;

    /**
     * @param tableDefaults options every created table gets unless it sets them itself
     * @param evolution carries out ALTER TABLE, RENAME TO and DROP PARTITION
     */
    public FlinkCatalog(String name, Catalog storage, String defaultDatabase, Map<String, String> tableDefaults,
            StorageEvolution evolution) {
        this(name, storage, defaultDatabase, tableDefaults, evolution, false);
    }

    /** @param noTablesInDefaultDatabase refuse CREATE TABLE in the default database (option {@code disable-create-table-in-default-db}) */
    public FlinkCatalog(String name, Catalog storage, String defaultDatabase, Map<String, String> tableDefaults,
            StorageEvolution evolution, boolean noTablesInDefaultDatabase) {
        super(name, defaultDatabase);
        this.storage = storage;
        this.tableDefaults = Map.copyOf(tableDefaults);
        this.evolution = evolution;
        this.noTablesInDefaultDatabase = noTablesInDefaultDatabase;
    }

    /** The storage catalog behind this catalog. */
    public Catalog storageCatalog() {
        return storage;
    }

    /** The {@code table-default.*} options, prefix removed. */
    public Map<String, String> tableDefaults() {
        return tableDefaults;
    }

    /** The storage table of a data table path (not a system table). */
    public Table storageTable(ObjectPath path) throws TableNotExistException {
        Identifier id = identifier(path);
        try {
            return storage.getTable(id);
        } catch (dev.streamhouse.storage.catalog.CatalogException.TableNotExist | IllegalArgumentException e) {
            throw new TableNotExistException(getName(), path, e);
        }
    }

    @Override
    public String name() {
        return getName();
    }

    @Override
    public String defaultDatabase() {
        return getDefaultDatabase();
    }

    @Override
    public Table table(ObjectPath path) throws TableNotExistException {
        return storageTable(path);
    }

    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new FlinkTableFactory(this::storageTable));
    }

    @Override
    public void open() throws CatalogException {
        try {
            storage.createDatabase(getDefaultDatabase(), true);
        } catch (RuntimeException e) {
            throw new CatalogException("Cannot open catalog '" + getName() + "': default database '"
                    + getDefaultDatabase() + "' cannot be created: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws CatalogException {
        storage.close();
    }

    // ------------------------------------------------------------------ procedures

    @Override
    public List<String> listProcedures(String databaseName) throws DatabaseNotExistException {
        if (Procedures.SYSTEM_DATABASE.equals(databaseName)) {
            return Procedures.names();
        }
        requireDatabase(databaseName);
        return List.of();
    }

    /**
     * The procedure at {@code path}, as {@link Procedures#resolve} finds it: an Apache Paimon procedure
     * that is not here yet, or a name there is no procedure by, fails with a
     * {@link org.apache.flink.table.api.ValidationException} naming it (never with
     * {@code ProcedureNotExistException}, which Flink reports as Calcite's "No match found").
     */
    @Override
    public Procedure getProcedure(ObjectPath path) {
        return Procedures.resolve(path, this);
    }

    // ------------------------------------------------------------------ databases

    @Override
    public List<String> listDatabases() {
        return storage.listDatabases();
    }

    @Override
    public CatalogDatabase getDatabase(String databaseName) throws DatabaseNotExistException {
        requireDatabase(databaseName);
        return new CatalogDatabaseImpl(Map.of(), null);
    }

    @Override
    public boolean databaseExists(String databaseName) {
        try {
            return storage.databaseExists(databaseName);
        } catch (IllegalArgumentException invalidName) {
            return false;
        }
    }

    @Override
    public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists)
            throws DatabaseAlreadyExistException {
        String comment = database.getComment();
        if (comment != null && !comment.isEmpty()) {
            throw new CatalogException("Cannot create database '" + name + "' with comment '" + comment
                    + "': this catalog stores no database metadata yet (in any metastore); remove the COMMENT clause");
        }
        if (!database.getProperties().isEmpty()) {
            throw new CatalogException("Cannot create database '" + name + "' with properties "
                    + database.getProperties() + ": this catalog stores no database properties yet (in any metastore); remove "
                    + "the WITH clause");
        }
        try {
            storage.createDatabase(name, ignoreIfExists);
        } catch (dev.streamhouse.storage.catalog.CatalogException.DatabaseAlreadyExist e) {
            throw new DatabaseAlreadyExistException(getName(), name, e);
        } catch (IllegalArgumentException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    @Override
    public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade)
            throws DatabaseNotExistException, DatabaseNotEmptyException {
        try {
            storage.dropDatabase(name, ignoreIfNotExists, cascade);
        } catch (dev.streamhouse.storage.catalog.CatalogException.DatabaseNotExist e) {
            throw new DatabaseNotExistException(getName(), name, e);
        } catch (dev.streamhouse.storage.catalog.CatalogException.DatabaseNotEmpty e) {
            throw new DatabaseNotEmptyException(getName(), name, e);
        } catch (IllegalArgumentException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    @Override
    public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists) {
        throw new CatalogException("Cannot alter database '" + name + "': this catalog stores no database "
                + "comment or properties");
    }

    // ------------------------------------------------------------------ tables

    @Override
    public List<String> listTables(String databaseName) throws DatabaseNotExistException {
        requireDatabase(databaseName);
        return storage.listTables(databaseName);
    }

    @Override
    public List<String> listViews(String databaseName) throws DatabaseNotExistException {
        requireDatabase(databaseName);
        return List.of();
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath path) throws TableNotExistException {
        if (SystemTables.isSystemTableName(path.getObjectName())) {
            return systemTable(path);
        }
        return CatalogTableConverter.toCatalogTable(storageTable(path).schema(), quoted(path));
    }

    /** The table as of {@code timestampMillis}: a copy with option {@code scan.timestamp-millis}. */
    @Override
    public CatalogBaseTable getTable(ObjectPath path, long timestampMillis) throws TableNotExistException {
        CatalogTable table = (CatalogTable) getTable(path);
        Map<String, String> options = new HashMap<>(table.getOptions());
        options.put(ScanOptions.SCAN_TIMESTAMP_MILLIS.key(), String.valueOf(timestampMillis));
        return table.copy(options);
    }

    /**
     * The system table {@code t$name}. An unknown name of an existing table is a {@link CatalogException}
     * listing the system tables (Flink would turn a {@link TableNotExistException} into a bare "not found").
     */
    private SystemCatalogTable systemTable(ObjectPath path) throws TableNotExistException {
        String objectName = path.getObjectName();
        ObjectPath dataPath = new ObjectPath(path.getDatabaseName(), SystemTables.dataTableName(objectName));
        Table data = storageTable(dataPath);
        String name = SystemTables.systemTableName(objectName);
        if (SystemTables.of(data, name).isEmpty() && SystemTables.dataView(data, name).isEmpty()) {
            throw new CatalogException("Unknown system table '" + objectName + "'; system tables are "
                    + SystemTables.names().stream().map(n -> "<table>$" + n).collect(Collectors.joining(", ")));
        }
        return new SystemCatalogTable(data, name, Map.of());
    }

    @Override
    public boolean tableExists(ObjectPath path) {
        String objectName = path.getObjectName();
        if (SystemTables.isSystemTableName(objectName)) {
            return SystemTables.names().contains(SystemTables.systemTableName(objectName).toLowerCase(java.util.Locale.ROOT))
                    && tableExists(new ObjectPath(path.getDatabaseName(), SystemTables.dataTableName(objectName)));
        }
        try {
            return storage.tableExists(identifier(path));
        } catch (IllegalArgumentException invalidName) {
            return false;
        }
    }

    @Override
    public void createTable(ObjectPath path, CatalogBaseTable table, boolean ignoreIfExists)
            throws TableAlreadyExistException, DatabaseNotExistException {
        String tableName = quoted(path);
        if (table.getTableKind() == CatalogBaseTable.TableKind.VIEW) {
            throw new CatalogException("Cannot create view " + tableName + ": views are not supported by this "
                    + "catalog; create a TEMPORARY VIEW instead");
        }
        if (!(table instanceof ResolvedCatalogTable)) {
            throw new CatalogException("Cannot create " + table.getTableKind().name().toLowerCase().replace('_', ' ')
                    + " " + tableName + ": only regular tables are supported by this catalog");
        }
        if (ignoreIfExists && tableExists(path)) {
            return; // as asked, whether or not the new definition could be stored
        }
        if (noTablesInDefaultDatabase && path.getDatabaseName().equals(getDefaultDatabase())) {
            throw new CatalogException("Cannot create table " + tableName + ": catalog '" + getName() + "' has "
                    + "option 'disable-create-table-in-default-db' = true, so tables go into other databases; "
                    + "CREATE DATABASE one and create the table there");
        }
        var schema = CatalogTableConverter.toStorageSchema((ResolvedCatalogTable) table, tableDefaults, tableName);
        try {
            storage.createTable(identifier(path), schema, ignoreIfExists);
        } catch (dev.streamhouse.storage.catalog.CatalogException.DatabaseNotExist e) {
            throw new DatabaseNotExistException(getName(), path.getDatabaseName(), e);
        } catch (dev.streamhouse.storage.catalog.CatalogException.TableAlreadyExist e) {
            throw new TableAlreadyExistException(getName(), path, e);
        } catch (IllegalArgumentException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    @Override
    public void dropTable(ObjectPath path, boolean ignoreIfNotExists) throws TableNotExistException {
        refuseSystemTable(path, "drop");
        try {
            storage.dropTable(identifier(path), ignoreIfNotExists);
        } catch (dev.streamhouse.storage.catalog.CatalogException.TableNotExist e) {
            throw new TableNotExistException(getName(), path, e);
        } catch (IllegalArgumentException e) {
            throw new CatalogException(e.getMessage(), e);
        }
    }

    @Override
    public void renameTable(ObjectPath path, String newTableName, boolean ignoreIfNotExists)
            throws TableNotExistException, TableAlreadyExistException {
        refuseSystemTable(path, "rename");
        if (!tableExists(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(getName(), path);
        }
        ObjectPath target = new ObjectPath(path.getDatabaseName(), newTableName);
        if (tableExists(target)) {
            throw new TableAlreadyExistException(getName(), target);
        }
        evolution.renameTable(identifier(path), identifier(target), ignoreIfNotExists);
    }

    @Override
    public void alterTable(ObjectPath path, CatalogBaseTable newTable, boolean ignoreIfNotExists) {
        refuseSystemTable(path, "alter");
        throw new CatalogException("Cannot alter table " + quoted(path) + " without a list of changes; use an "
                + "ALTER TABLE statement");
    }

    /**
     * Translates the statement's changes (see {@link TableChangeTranslator}) and applies them together;
     * the stored computed columns are rewritten from {@code newTable}, the table as Flink resolved it
     * after the statement.
     */
    @Override
    public void alterTable(ObjectPath path, CatalogBaseTable newTable, List<TableChange> tableChanges,
            boolean ignoreIfNotExists) throws TableNotExistException {
        refuseSystemTable(path, "alter");
        if (!tableExists(path)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new TableNotExistException(getName(), path);
        }
        Map<String, String> storedOptions = storageTable(path).schema().options();
        ResolvedSchema newSchema = newTable instanceof ResolvedCatalogBaseTable
                ? ((ResolvedCatalogBaseTable<?>) newTable).getResolvedSchema() : null;
        List<SchemaChange> changes = new TableChangeTranslator(quoted(path))
                .translate(tableChanges, storedOptions, newSchema);
        if (!changes.isEmpty()) {
            evolution.alterTable(identifier(path), changes, ignoreIfNotExists);
        }
    }

    private void refuseSystemTable(ObjectPath path, String verb) {
        if (SystemTables.isSystemTableName(path.getObjectName())) {
            throw new CatalogException("Cannot " + verb + " system table " + quoted(path)
                    + ": system tables are read-only");
        }
    }

    // ------------------------------------------------------------------ partitions

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path)
            throws TableNotExistException, TableNotPartitionedException {
        return TablePartitions.specs(partitions(path).all());
    }

    @Override
    public List<CatalogPartitionSpec> listPartitions(ObjectPath path, CatalogPartitionSpec partialSpec)
            throws TableNotExistException, TableNotPartitionedException {
        return TablePartitions.specs(partitions(path).matching(partialSpec));
    }

    /**
     * Partitions matching all {@code filters}; throws {@link UnsupportedOperationException} (Flink then
     * lists all partitions and filters itself) when a filter cannot be evaluated on partition values.
     */
    @Override
    public List<CatalogPartitionSpec> listPartitionsByFilter(ObjectPath path, List<Expression> filters)
            throws TableNotExistException, TableNotPartitionedException {
        return TablePartitions.specs(partitions(path).filtered(filters));
    }

    @Override
    public CatalogPartition getPartition(ObjectPath path, CatalogPartitionSpec spec) throws PartitionNotExistException {
        try {
            return partitions(path).exact(spec).map(TablePartitions::toCatalogPartition)
                    .orElseThrow(() -> new PartitionNotExistException(getName(), path, spec));
        } catch (TableNotExistException | TableNotPartitionedException e) {
            throw new PartitionNotExistException(getName(), path, spec, e);
        }
    }

    @Override
    public boolean partitionExists(ObjectPath path, CatalogPartitionSpec spec) {
        try {
            return partitions(path).exact(spec).isPresent();
        } catch (TableNotExistException | TableNotPartitionedException e) {
            return false;
        }
    }

    @Override
    public void createPartition(ObjectPath path, CatalogPartitionSpec spec, CatalogPartition partition,
            boolean ignoreIfExists) {
        throw new CatalogException("Cannot add partition " + spec.getPartitionSpec() + " to " + quoted(path)
                + ": partitions of a filesystem catalog exist by having data; write rows into the partition instead");
    }

    /** Drops every partition matching {@code spec}, which may name only some partition keys. */
    @Override
    public void dropPartition(ObjectPath path, CatalogPartitionSpec spec, boolean ignoreIfNotExists)
            throws PartitionNotExistException {
        refuseSystemTable(path, "drop partitions of");
        List<TablePartitions.Partition> matching;
        try {
            matching = partitions(path).matching(spec);
        } catch (TableNotExistException | TableNotPartitionedException e) {
            throw new PartitionNotExistException(getName(), path, spec, e);
        }
        if (matching.isEmpty()) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new PartitionNotExistException(getName(), path, spec);
        }
        evolution.dropPartitions(identifier(path),
                matching.stream().map(p -> p.spec().getPartitionSpec()).collect(Collectors.toList()));
    }

    @Override
    public void alterPartition(ObjectPath path, CatalogPartitionSpec spec, CatalogPartition newPartition,
            boolean ignoreIfNotExists) {
        throw new CatalogException("Cannot alter partition " + spec.getPartitionSpec() + " of " + quoted(path)
                + ": a filesystem catalog stores no partition properties");
    }

    private TablePartitions partitions(ObjectPath path) throws TableNotExistException, TableNotPartitionedException {
        Table table = storageTable(path);
        if (table.partitionKeys().isEmpty()) {
            throw new TableNotPartitionedException(getName(), path);
        }
        return new TablePartitions(table, quoted(path));
    }

    // ------------------------------------------------------------------ helpers

    private static Identifier identifier(ObjectPath path) {
        return Identifier.of(path.getDatabaseName(), path.getObjectName());
    }

}
