package dev.streamhouse.flink.cdc.catalog;

import dev.streamhouse.flink.cdc.table.MySqlCdcOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.util.Set;

/**
 * The options of {@code CREATE CATALOG c WITH ('type' = 'mysql', ...)}, with the names of Alibaba
 * VVR's MySQL catalog: the connection ({@code hostname}, {@code port}, {@code username},
 * {@code password}, {@code jdbc.properties.*}), {@code server-time-zone} for TIMESTAMP values, and
 * an optional {@code default-database}. The connection options are the {@code mysql-cdc}
 * connector's ({@link MySqlCdcOptions}); the catalog's tables carry them, but not the password,
 * which only the catalog holds.
 */
public final class MySqlCatalogOptions {
    private MySqlCatalogOptions() {}

    public static final ConfigOption<String> DEFAULT_DATABASE = ConfigOptions.key("default-database").stringType()
            .noDefaultValue().withDescription("The MySQL database USE CATALOG makes current; none when unset "
                    + "(names then need their database).");

    static final Set<ConfigOption<?>> REQUIRED =
            Set.of(MySqlCdcOptions.HOSTNAME, MySqlCdcOptions.USERNAME, MySqlCdcOptions.PASSWORD);
    static final Set<ConfigOption<?>> OPTIONAL =
            Set.of(MySqlCdcOptions.PORT, DEFAULT_DATABASE, MySqlCdcOptions.SERVER_TIME_ZONE);
}
