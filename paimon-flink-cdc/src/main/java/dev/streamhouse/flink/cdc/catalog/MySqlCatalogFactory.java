package dev.streamhouse.flink.cdc.catalog;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.source.CdcDeserializer;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.table.MySqlCdcOptions;
import dev.streamhouse.flink.cdc.table.MySqlCdcTableFactory;
import dev.streamhouse.flink.cdc.table.MySqlSourceConfigs;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Creates {@link MySqlCatalog}s for {@code CREATE CATALOG mysql WITH ('type' = 'mysql', 'hostname' =
 * ..., 'port' = ..., 'username' = ..., 'password' = ...)} ({@link MySqlCatalogOptions}). Unknown options
 * are refused, naming them; the catalog connects once when it opens, so a wrong address or login fails
 * the CREATE CATALOG.
 */
public final class MySqlCatalogFactory implements CatalogFactory {
    /** The catalog type, {@code 'type' = 'mysql'}. */
    public static final String IDENTIFIER = "mysql";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return MySqlCatalogOptions.REQUIRED;
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return MySqlCatalogOptions.OPTIONAL;
    }

    @Override
    public MySqlCatalog createCatalog(Context context) {
        FactoryUtil.CatalogFactoryHelper helper = FactoryUtil.createCatalogFactoryHelper(this, context);
        helper.validateExcept(MySqlCdcOptions.JDBC_PREFIX);
        ReadableConfig options = helper.getOptions();
        String name = context.getName();

        Map<String, String> tableOptions = new LinkedHashMap<>();
        tableOptions.put(FactoryUtil.CONNECTOR.key(), MySqlCdcTableFactory.IDENTIFIER);
        tableOptions.put(MySqlCdcOptions.HOSTNAME.key(), options.get(MySqlCdcOptions.HOSTNAME));
        tableOptions.put(MySqlCdcOptions.PORT.key(), Integer.toString(options.get(MySqlCdcOptions.PORT)));
        tableOptions.put(MySqlCdcOptions.USERNAME.key(), options.get(MySqlCdcOptions.USERNAME));
        options.getOptional(MySqlCdcOptions.SERVER_TIME_ZONE)
                .ifPresent(zone -> tableOptions.put(MySqlCdcOptions.SERVER_TIME_ZONE.key(), zone));
        context.getOptions().forEach((key, value) -> {
            if (key.startsWith(MySqlCdcOptions.JDBC_PREFIX)) {
                tableOptions.put(key, value);
            }
        });

        Map<String, String> connection = new LinkedHashMap<>(tableOptions);
        connection.remove(FactoryUtil.CONNECTOR.key());
        connection.put(MySqlCdcOptions.PASSWORD.key(), options.get(MySqlCdcOptions.PASSWORD));
        connection.put(MySqlCdcOptions.DATABASE_NAME.key(), ".*");
        MySqlSourceConfig config;
        try {
            config = MySqlSourceConfigs.<CdcEvent>builder(connection, "catalog '" + name + "'")
                    .deserializer(CdcDeserializer.events()).build().config();
        } catch (IllegalArgumentException e) {
            throw new ValidationException("Cannot create catalog '" + name + "': " + e.getMessage(), e);
        }
        return new MySqlCatalog(name, options.getOptional(MySqlCatalogOptions.DEFAULT_DATABASE).orElse(null), config,
                tableOptions);
    }
}
