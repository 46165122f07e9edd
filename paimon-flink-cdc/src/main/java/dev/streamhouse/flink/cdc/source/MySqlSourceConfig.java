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
    private final int serverIdEnd;
    private final String serverTimeZone;
    private final StartupOptions startup;
    private final long connectTimeoutMillis;
    private final Map<String, String> debeziumProperties;
    private final Map<String, String> jdbcProperties;
    private final boolean chunkedSnapshot;
    private final int chunkSize;
    private final boolean skipTablesWithoutKey;

    MySqlSourceConfig(String hostname, int port, String username, String password, String databaseRegex,
            String tableRegex, int serverId, int serverIdEnd, String serverTimeZone, StartupOptions startup,
            long connectTimeoutMillis, Map<String, String> debeziumProperties, Map<String, String> jdbcProperties,
            boolean chunkedSnapshot, int chunkSize, boolean skipTablesWithoutKey) {
        this.hostname = Objects.requireNonNull(hostname);
        this.port = port;
        this.username = Objects.requireNonNull(username);
        this.password = password == null ? "" : password;
        this.databaseRegex = Objects.requireNonNull(databaseRegex);
        this.tableRegex = tableRegex;
        this.serverId = serverId;
        this.serverIdEnd = serverIdEnd;
        this.serverTimeZone = serverTimeZone;
        this.startup = Objects.requireNonNull(startup);
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.debeziumProperties = new TreeMap<>(debeziumProperties);
        this.jdbcProperties = new TreeMap<>(jdbcProperties);
        this.chunkedSnapshot = chunkedSnapshot;
        this.chunkSize = chunkSize;
        this.skipTablesWithoutKey = skipTablesWithoutKey;
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

    /** The first (or only) replica server id. */
    public int serverId() {
        return serverId;
    }

    /**
     * The replica server id of the binlog connections of reader {@code subtask}: each reader reads
     * chunk windows or the binlog over connections of its own, and a server drops a replica
     * connection when another one with the same id arrives. Ids run from {@link #serverId()} up;
     * with a range ('server-id' = '5400-5403') a reader beyond its end fails, naming the option.
     */
    public int serverIdFor(int subtask) {
        int id = serverId + subtask;
        if (serverIdEnd > 0 && id > serverIdEnd) {
            throw new IllegalStateException("Cannot read MySQL server " + address() + " with reader " + subtask
                    + ": 'server-id' = '" + serverId + "-" + serverIdEnd + "' has " + (serverIdEnd - serverId + 1)
                    + " ids, one per reader; give it at least as many ids as the source's parallelism");
        }
        return id;
    }

    /** True when startup mode {@code initial} snapshots in parallel chunks; false for Debezium's snapshot. */
    public boolean chunkedSnapshot() {
        return chunkedSnapshot;
    }

    /** Rows per snapshot chunk ({@code scan.incremental.snapshot.chunk.size}). */
    /**
     * Whether the chunked snapshot leaves out captured tables without a primary key (their binlog
     * changes still come) instead of refusing them: for a database sync, which syncs only tables with
     * one.
     */
    public boolean skipTablesWithoutKey() {
        return skipTablesWithoutKey;
    }

    public int chunkSize() {
        return chunkSize;
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
