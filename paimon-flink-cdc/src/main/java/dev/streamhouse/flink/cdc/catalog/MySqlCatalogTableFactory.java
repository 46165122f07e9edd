package dev.streamhouse.flink.cdc.catalog;

import dev.streamhouse.flink.cdc.table.MySqlCdcOptions;
import dev.streamhouse.flink.cdc.table.MySqlCdcTableFactory;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The factory Flink uses for the tables of a {@link MySqlCatalog}: the {@code mysql-cdc} connector
 * with the catalog's password added to the table's options (a hint's {@code password} wins), and a
 * refusal naming the table for writes.
 */
final class MySqlCatalogTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {
    private final String catalog;
    private final String password;
    private final String readOnlyReason;
    private final MySqlCdcTableFactory connector = new MySqlCdcTableFactory();

    MySqlCatalogTableFactory(String catalog, String password, String readOnlyReason) {
        this.catalog = catalog;
        this.password = password;
        this.readOnlyReason = readOnlyReason;
    }

    @Override
    public String factoryIdentifier() {
        return MySqlCdcTableFactory.IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return connector.requiredOptions();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return connector.optionalOptions();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        Map<String, String> options = new HashMap<>(context.getCatalogTable().getOptions());
        options.putIfAbsent(MySqlCdcOptions.PASSWORD.key(), password);
        return connector.createDynamicTableSource(new FactoryUtil.DefaultDynamicTableContext(
                context.getObjectIdentifier(), context.getCatalogTable().copy(options),
                context.getEnrichmentOptions(), context.getConfiguration(), context.getClassLoader(),
                context.isTemporary()));
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        throw new ValidationException("Cannot write to table " + context.getObjectIdentifier().asSerializableString()
                + ": catalog '" + catalog + "' " + readOnlyReason);
    }
}
