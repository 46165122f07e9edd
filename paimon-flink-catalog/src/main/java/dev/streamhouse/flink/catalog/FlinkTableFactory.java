package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.options.TableKindOptions;
import dev.streamhouse.flink.catalog.system.SystemCatalogTable;
import dev.streamhouse.flink.catalog.system.SystemTableSource;

import dev.streamhouse.flink.catalog.connector.PaimonTableSink;
import dev.streamhouse.flink.catalog.connector.PaimonTableSource;
import dev.streamhouse.storage.options.FileSystemOptions;
import dev.streamhouse.storage.options.SecretOptions;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.system.SystemTables;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Creates the sources and sinks of the tables a paimon catalog returns (Flink asks the catalog's
 * {@code getFactory()} first): metadata system tables get a {@link SystemTableSource}, the data views
 * ({@code t$audit_log}, {@code t$binlog}, {@code t$ro}) the paimon source over the view; a table naming another
 * {@code connector} (e.g. a temporary table) goes to that connector's factory; data tables go to the
 * paimon source and sink.
 */
public final class FlinkTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    /** The storage tables of the catalog a factory serves. */
    @FunctionalInterface
    public interface StorageTables {
        Table storageTable(ObjectPath path) throws TableNotExistException;
    }

    private final StorageTables catalog;

    /** For the tables of a paimon catalog. */
    public FlinkTableFactory(StorageTables catalog) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    /** For tables outside a paimon catalog: {@code 'connector'='paimon', 'path'='...'}. */
    public FlinkTableFactory() {
        this.catalog = null;
    }

    @Override
    public String factoryIdentifier() {
        return CatalogTableOptions.PAIMON;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Collections.emptySet();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Collections.emptySet();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        CatalogBaseTable origin = context.getCatalogTable().getOrigin();
        if (origin instanceof SystemCatalogTable) {
            SystemCatalogTable system = (SystemCatalogTable) origin;
            Map<String, String> hints = context.getCatalogTable().getOptions();
            if (system.isDataView()) {
                return dataViewSource(system, hints, isStreaming(context));
            }
            return new SystemTableSource(withSystemTableOptions(context.getObjectIdentifier(), system.dataTable(), hints),
                    system.systemTableName());
        }
        if (namesOtherConnector(context)) {
            return FactoryUtil.createDynamicTableSource(null, context.getObjectIdentifier(), context.getCatalogTable(),
                    context.getEnrichmentOptions(), context.getConfiguration(), context.getClassLoader(),
                    context.isTemporary());
        }
        return new PaimonTableSource(dataTable(context), isStreaming(context));
    }

    private static boolean isStreaming(Context context) {
        return context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.STREAMING;
    }

    /**
     * A data view read like its data table: the query's hints are dynamic options of the data table,
     * checked as such; a view that cannot be read as a stream (the read-optimized view of a
     * primary-key table) is refused when the query is planned.
     */
    private static DynamicTableSource dataViewSource(SystemCatalogTable system, Map<String, String> hints,
            boolean streaming) {
        Table view;
        try {
            view = hints.isEmpty() ? system.dataView() : system.dataView().copy(hints);
            if (streaming) {
                view.newReadBuilder().newStreamScan();
            }
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        return PaimonTableSource.forSystemTable(view, streaming);
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        CatalogBaseTable origin = context.getCatalogTable().getOrigin();
        if (origin instanceof SystemCatalogTable) {
            throw new ValidationException("Cannot write to " + context.getObjectIdentifier() + ": system tables are "
                    + "read-only");
        }
        if (namesOtherConnector(context)) {
            return FactoryUtil.createDynamicTableSink(null, context.getObjectIdentifier(), context.getCatalogTable(),
                    context.getEnrichmentOptions(), context.getConfiguration(), context.getClassLoader(),
                    context.isTemporary());
        }
        return new PaimonTableSink(dataTable(context));
    }

    /**
     * The storage table behind a catalog table (or, without a catalog, the table at option {@code path},
     * created from the DDL on first use), with the statement's {@code OPTIONS} hints applied.
     */
    private Table dataTable(Context context) {
        ObjectIdentifier id = context.getObjectIdentifier();
        Map<String, String> options = context.getCatalogTable().getOptions();
        Table stored;
        if (catalog != null) {
            try {
                stored = catalog.storageTable(new ObjectPath(id.getDatabaseName(), id.getObjectName()));
            } catch (TableNotExistException e) {
                throw new ValidationException("Cannot use table " + id + ": it does not exist", e);
            }
        } else {
            stored = PathTables.loadOrCreate(context.getCatalogTable(), id.asSummaryString(),
                    context.getConfiguration().toMap());
        }
        Map<String, String> dynamic = new HashMap<>();
        for (Map.Entry<String, String> e : options.entrySet()) {
            String key = e.getKey();
            boolean maskedSecret = SecretOptions.isSecret(key) && SecretOptions.MASK.equals(e.getValue());
            boolean pathTableFileSystem = catalog == null && FileSystemOptions.isFileSystemKey(key);
            if (!key.equals(CatalogTableOptions.CONNECTOR.key()) && !key.equals(TableKindOptions.PATH.key()) && !maskedSecret
                    && !pathTableFileSystem && !Objects.equals(stored.options().get(key), e.getValue())) {
                dynamic.put(key, e.getValue());
            }
        }
        try {
            return dynamic.isEmpty() ? stored : stored.copy(dynamic);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(e.getMessage(), e);
        }
    }

    /**
     * The data table with the query's options, which for a metadata system table can only be the
     * time-travel options: any other would be ignored, so it is refused; the two are checked like any
     * dynamic option.
     */
    private static Table withSystemTableOptions(ObjectIdentifier id, Table data, Map<String, String> hints) {
        for (String key : hints.keySet()) {
            if (!SystemTables.OPTIONS.contains(key)) {
                throw new ValidationException("Cannot read system table " + id + " with option '" + key + "': system "
                        + "tables take only " + SystemTables.OPTIONS + " (time travel); remove the option, or read a "
                        + "data view (" + String.join(", ", dataViewNames()) + "), which takes the data table's options");
            }
        }
        try {
            return hints.isEmpty() ? data : data.copy(hints);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(e.getMessage(), e);
        }
    }

    private static java.util.List<String> dataViewNames() {
        return SystemTables.names().stream().filter(SystemTables::isDataView).map(n -> "<table>$" + n)
                .collect(java.util.stream.Collectors.toList());
    }

    private static boolean namesOtherConnector(Context context) {
        String connector = context.getCatalogTable().getOptions().get(CatalogTableOptions.CONNECTOR.key());
        return connector != null && !connector.equals(CatalogTableOptions.PAIMON);
    }
}
