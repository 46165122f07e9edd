package dev.streamhouse.flink.cdc.source;

import java.io.Serializable;
import java.time.ZoneId;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Everything a MySQL CDC source needs to reach the server and pick its tables; built and checked by
 * {@link MySqlCdcSourceBuilder}. Database and table names are regular expressions matched against
 * whole names (a table name is matched without its database).
 */
public final class MySqlSourceConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String hostname;
    private final int port;
    private final String username;
    private final String password;
    private final String databaseRegex;
    private final String tableRegex;
    private final int serverId;
    private final String serverTimeZone;
    private final StartupOptions startup;
    private final long connectTimeoutMillis;
    private final Map<String, String> debeziumProperties;
    private final Map<String, String> jdbcProperties;

    MySqlSourceConfig(String hostname, int port, String username, String password, String databaseRegex,
            String tableRegex, int serverId, String serverTimeZone, StartupOptions startup,
            long connectTimeoutMillis, Map<String, String> debeziumProperties, Map<String, String> jdbcProperties) {
        this.hostname = Objects.requireNonNull(hostname);
        this.port = port;
        this.username = Objects.requireNonNull(username);
        this.password = password == null ? "" : password;
        this.databaseRegex = Objects.requireNonNull(databaseRegex);
        this.tableRegex = tableRegex;
        this.serverId = serverId;
        this.serverTimeZone = serverTimeZone;
        this.startup = Objects.requireNonNull(startup);
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.debeziumProperties = new TreeMap<>(debeziumProperties);
        this.jdbcProperties = new TreeMap<>(jdbcProperties);
    }

    public String hostname() {
        return hostname;
    }

    public int port() {
        return port;
    }

    public String username() {
        return username;
    }

    public String password() {
        return password;
    }

    public String databaseRegex() {
        return databaseRegex;
    }

    /** The table-name regex; null captures every table of the matched databases. */
    public String tableRegex() {
        return tableRegex;
    }

    public int serverId() {
        return serverId;
    }

    /** The session time zone for TIMESTAMP values; null means the server's. */
    public String serverTimeZone() {
        return serverTimeZone;
    }

    public ZoneId zoneId() {
        return serverTimeZone == null ? ZoneId.of("UTC") : ZoneId.of(serverTimeZone);
    }

    public StartupOptions startup() {
        return startup;
    }

    public long connectTimeoutMillis() {
        return connectTimeoutMillis;
    }

    /** Extra Debezium connector properties ({@code debezium.*} options, prefix removed). */
    public Map<String, String> debeziumProperties() {
        return debeziumProperties;
    }

    /** Extra JDBC driver properties ({@code jdbc.properties.*} options, prefix removed). */
    public Map<String, String> jdbcProperties() {
        return jdbcProperties;
    }

    /** True when the source captures this table. */
    public boolean captures(String database, String table) {
        return Pattern.matches(databaseRegex, database) && (tableRegex == null || Pattern.matches(tableRegex, table));
    }

    /** Where the server is, for messages: {@code host:port}. */
    public String address() {
        return hostname + ":" + port;
    }
}
