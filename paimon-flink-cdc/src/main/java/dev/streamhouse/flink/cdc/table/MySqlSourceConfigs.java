package dev.streamhouse.flink.cdc.table;

import dev.streamhouse.flink.cdc.source.MySqlCdcSource;
import dev.streamhouse.flink.cdc.source.MySqlCdcSourceBuilder;
import dev.streamhouse.flink.cdc.source.StartupMode;
import dev.streamhouse.flink.cdc.source.StartupOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.CONNECT_TIMEOUT;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.DATABASE_NAME;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.DEBEZIUM_PREFIX;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.HOSTNAME;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.JDBC_PREFIX;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.PASSWORD;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.PORT;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.SCAN_INCREMENTAL_SNAPSHOT_ENABLED;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.SCAN_STARTUP_MODE;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.SCAN_STARTUP_SPECIFIC_OFFSET_FILE;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.SCAN_STARTUP_SPECIFIC_OFFSET_POS;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.SCAN_STARTUP_TIMESTAMP_MILLIS;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.SERVER_ID;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.SERVER_TIME_ZONE;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.TABLE_NAME;
import static dev.streamhouse.flink.cdc.table.MySqlCdcOptions.USERNAME;

/**
 * A {@link MySqlCdcSourceBuilder} from the {@code mysql-cdc} options (Flink CDC's names), as the table
 * factory and the sync actions' {@code --mysql_conf} give them: connection, databases and tables,
 * server id, time zone, startup mode, plus {@code debezium.*} and {@code jdbc.properties.*} pass-through.
 */
public final class MySqlSourceConfigs {
    /** Options every source needs. */
    public static final Set<ConfigOption<?>> REQUIRED = Set.of(HOSTNAME, USERNAME, PASSWORD, DATABASE_NAME);
    public static final Set<ConfigOption<?>> OPTIONAL = Set.of(PORT, TABLE_NAME, SERVER_ID, SERVER_TIME_ZONE,
            SCAN_STARTUP_MODE, SCAN_STARTUP_SPECIFIC_OFFSET_FILE, SCAN_STARTUP_SPECIFIC_OFFSET_POS,
            SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET, SCAN_STARTUP_TIMESTAMP_MILLIS, CONNECT_TIMEOUT,
            SCAN_INCREMENTAL_SNAPSHOT_ENABLED, SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE);

    private MySqlSourceConfigs() {}

    /**
     * A builder from {@code options}, checked: a missing required option or an unknown key (other than
     * {@code debezium.*} / {@code jdbc.properties.*}) fails naming it, as does an invalid value.
     *
     * @param what what the options configure, for messages (e.g. {@code --mysql_conf})
     */
    public static <T> MySqlCdcSourceBuilder<T> builder(Map<String, String> options, String what) {
        Set<String> known = new TreeSet<>();
        REQUIRED.forEach(o -> known.add(o.key()));
        OPTIONAL.forEach(o -> known.add(o.key()));
        List<String> unknown = new ArrayList<>();
        for (String key : options.keySet()) {
            if (!known.contains(key) && !key.startsWith(DEBEZIUM_PREFIX) && !key.startsWith(JDBC_PREFIX)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("Unknown " + what + " option(s) " + unknown + "; known: " + known
                    + ", and debezium.* and jdbc.properties.* passed through");
        }
        for (ConfigOption<?> required : REQUIRED) {
            if (!options.containsKey(required.key())) {
                throw new IllegalArgumentException("Missing " + what + " option '" + required.key() + "' ("
                        + required.description() + ")");
            }
        }
        return builder(Configuration.fromMap(options), options);
    }

    /** A builder from checked options; {@code raw} holds the pass-through keys. */
    static <T> MySqlCdcSourceBuilder<T> builder(ReadableConfig options, Map<String, String> raw) {
        MySqlCdcSourceBuilder<T> builder = MySqlCdcSource.<T>builder()
                .hostname(options.get(HOSTNAME))
                .port(options.get(PORT))
                .username(options.get(USERNAME))
                .password(options.get(PASSWORD))
                .databaseName(options.get(DATABASE_NAME))
                .tableName(options.get(TABLE_NAME))
                .startupOptions(startup(options))
                .connectTimeoutMillis(options.get(CONNECT_TIMEOUT).toMillis());
        options.getOptional(SERVER_ID).ifPresent(id -> {
            int[] range = parseServerIds(id);
            builder.serverIdRange(range[0], range[1]);
        });
        builder.snapshotChunkSize(options.get(SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE));
        if (!options.get(SCAN_INCREMENTAL_SNAPSHOT_ENABLED)) {
            builder.debeziumSnapshot();
        }
        options.getOptional(SERVER_TIME_ZONE).ifPresent(builder::serverTimeZone);
        for (Map.Entry<String, String> e : raw.entrySet()) {
            if (e.getKey().startsWith(DEBEZIUM_PREFIX)) {
                builder.debeziumProperty(e.getKey().substring(DEBEZIUM_PREFIX.length()), e.getValue());
            } else if (e.getKey().startsWith(JDBC_PREFIX)) {
                builder.jdbcProperty(e.getKey().substring(JDBC_PREFIX.length()), e.getValue());
            }
        }
        return builder;
    }

    static StartupOptions startup(ReadableConfig options) {
        StartupMode mode = StartupMode.fromValue(options.get(SCAN_STARTUP_MODE));
        return switch (mode) {
            case INITIAL -> StartupOptions.initial();
            case LATEST_OFFSET -> StartupOptions.latest();
            case EARLIEST_OFFSET -> StartupOptions.earliest();
            case SPECIFIC_OFFSET -> options.getOptional(SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET).isPresent()
                    ? StartupOptions.specificGtidSet(options.get(SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET))
                    : StartupOptions.specificOffset(options.getOptional(SCAN_STARTUP_SPECIFIC_OFFSET_FILE).orElse(null),
                            options.getOptional(SCAN_STARTUP_SPECIFIC_OFFSET_POS).orElse(-1L));
            case TIMESTAMP -> StartupOptions.timestamp(options.getOptional(SCAN_STARTUP_TIMESTAMP_MILLIS).orElseThrow(
                    () -> new IllegalArgumentException("scan.startup.mode 'timestamp' needs 'scan.startup.timestamp-millis'")));
        };
    }

    /**
     * A number, or a range {@code 5400-5408} with one id per reader, as {first, last}; a single
     * number gives {id, -1}: reader i then uses {@code id + i}.
     */
    public static int[] parseServerIds(String value) {
        String v = value.trim();
        try {
            int dash = v.indexOf('-');
            if (dash > 0) {
                int start = Integer.parseInt(v.substring(0, dash).trim());
                int end = Integer.parseInt(v.substring(dash + 1).trim());
                if (start > end || start <= 0) {
                    throw new NumberFormatException();
                }
                return new int[] {start, end};
            }
            int id = Integer.parseInt(v);
            if (id <= 0) {
                throw new NumberFormatException();
            }
            return new int[] {id, -1};
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid 'server-id' '" + value
                    + "': expected a positive number or a range like '5400-5408'");
        }
    }
}
