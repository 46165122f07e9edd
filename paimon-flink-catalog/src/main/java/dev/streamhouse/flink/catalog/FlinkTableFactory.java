package dev.streamhouse.flink.catalog;

import dev.streamhouse.flink.catalog.system.SystemCatalogTable;
import dev.streamhouse.flink.catalog.system.SystemTableSource;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.Collections;
import java.util.Set;

/**
 * Creates the sources and sinks of the tables a {@link FlinkCatalog} returns (Flink asks the catalog's
 * {@link FlinkCatalog#getFactory()} first): system tables get a {@link SystemTableSource}; a table
 * naming another {@code connector} (e.g. a temporary table) goes to that connector's factory; data
 * tables go to the paimon source and sink.
 */
public final class FlinkTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {
    private final FlinkCatalog catalog;

    public FlinkTableFactory(FlinkCatalog catalog) {
        this.catalog = catalog;
    }

    /** The catalog whose tables this factory serves. */
    public FlinkCatalog catalog() {
        return catalog;
    }

    @Override
    public String factoryIdentifier() {
        return FlinkCatalogFactory.IDENTIFIER;
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
            return new SystemTableSource(system.systemTable(), system.dataTable(), context.getCatalogTable().getOptions());
        }
        if (namesOtherConnector(context)) {
            return FactoryUtil.createDynamicTableSource(null, context.getObjectIdentifier(), context.getCatalogTable(),
                    context.getEnrichmentOptions(), context.getConfiguration(), context.getClassLoader(),
                    context.isTemporary());
        }
        // TODO(lead, after merging h-source): return the paimon DynamicTableSource for the data table
        //  catalog.storageTable(...) names, using PredicateConverter for SupportsFilterPushDown.
        throw new ValidationException("Cannot read table " + context.getObjectIdentifier() + ": reading data "
                + "tables from SQL is not available in this build yet (the paimon table source is not wired)");
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
        // TODO(lead, after merging h-sink): return the paimon DynamicTableSink for the data table.
        throw new ValidationException("Cannot write to table " + context.getObjectIdentifier() + ": writing data "
                + "tables from SQL is not available in this build yet (the paimon table sink is not wired)");
    }

    private static boolean namesOtherConnector(Context context) {
        String connector = context.getCatalogTable().getOptions().get(CatalogTableConverter.CONNECTOR_OPTION);
        return connector != null && !connector.equals(FlinkCatalogFactory.IDENTIFIER);
    }
}
