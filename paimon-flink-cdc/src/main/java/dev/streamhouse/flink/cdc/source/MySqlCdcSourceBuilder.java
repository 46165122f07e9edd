package dev.streamhouse.flink.cdc.source;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Builds a {@link MySqlCdcSource}: the one way to make one, for the DataStream API and the
 * {@code mysql-cdc} table factory alike. {@link #build()} checks the settings and names the option
 * of each problem.
 *
 * <pre>{@code
 * MySqlCdcSource<CdcEvent> source = MySqlCdcSource.<CdcEvent>builder()
 *     .hostname("127.0.0.1").port(3306).username("cdc").password("...")
 *     .databaseName("shop").tableName("orders|customers")
 *     .startupOptions(StartupOptions.initial())
 *     .deserializer(CdcDeserializer.events())
 *     .build();
 * env.fromSource(source, WatermarkStrategy.noWatermarks(), "mysql-cdc");
 * }</pre>
 */
public final class MySqlCdcSourceBuilder<T> {
    /** Flink CDC's default for {@code scan.incremental.snapshot.chunk.size}. */
    public static final int DEFAULT_CHUNK_SIZE = 8096;

    private String hostname;
    private int port = 3306;
    private String username;
    private String password;
    private String databaseRegex;
    private String tableRegex;
    private int serverId = -1;
    private int serverIdEnd = -1;
    private boolean chunkedSnapshot = true;
    private int chunkSize = DEFAULT_CHUNK_SIZE;
    private boolean skipTablesWithoutKey;
    private String serverTimeZone;
    private StartupOptions startup = StartupOptions.initial();
    private long connectTimeoutMillis = 30_000;
    private final Map<String, String> debeziumProperties = new HashMap<>();
    private final Map<String, String> jdbcProperties = new HashMap<>();
    private CdcDeserializer<T> deserializer;

    MySqlCdcSourceBuilder() {}

    public MySqlCdcSourceBuilder<T> hostname(String hostname) {
        this.hostname = hostname;
        return this;
    }

    public MySqlCdcSourceBuilder<T> port(int port) {
        this.port = port;
        return this;
    }

    public MySqlCdcSourceBuilder<T> username(String username) {
        this.username = username;
        return this;
    }

    public MySqlCdcSourceBuilder<T> password(String password) {
        this.password = password;
        return this;
    }

    /** A regular expression for the databases to capture. */
    public MySqlCdcSourceBuilder<T> databaseName(String databaseRegex) {
        this.databaseRegex = databaseRegex;
        return this;
    }

    /** A regular expression for the tables (names without database) to capture; all when unset. */
    public MySqlCdcSourceBuilder<T> tableName(String tableRegex) {
        this.tableRegex = tableRegex;
        return this;
    }

    /**
     * The replica server id of the first reader's binlog connections; reader i uses {@code serverId + i}.
     * Unique among the server's replicas.
     */
    public MySqlCdcSourceBuilder<T> serverId(int serverId) {
        this.serverId = serverId;
        this.serverIdEnd = -1;
        return this;
    }

    /** Replica server ids {@code first} to {@code last}, one per reader ('server-id' = '5400-5403'). */
    public MySqlCdcSourceBuilder<T> serverIdRange(int first, int last) {
        this.serverId = first;
        this.serverIdEnd = last;
        return this;
    }

    /**
     * Rows per chunk of the parallel snapshot ({@code scan.incremental.snapshot.chunk.size}, default
     * {@value #DEFAULT_CHUNK_SIZE}).
     */
    public MySqlCdcSourceBuilder<T> snapshotChunkSize(int rows) {
        this.chunkSize = rows;
        return this;
    }

    /**
     * The chunked snapshot leaves out captured tables without a primary key (with a warning) instead of
     * refusing them; their binlog changes still come. For a database sync, which syncs only tables
     * with a primary key.
     */
    public MySqlCdcSourceBuilder<T> snapshotSkippingTablesWithoutKey() {
        this.skipTablesWithoutKey = true;
        return this;
    }

    /**
     * Startup mode {@code initial} snapshots with Debezium's single-threaded snapshot instead of the
     * parallel chunked one ({@code 'scan.incremental.snapshot.enabled' = 'false'}); checkpoints are
     * then skipped until the snapshot is done.
     */
    public MySqlCdcSourceBuilder<T> debeziumSnapshot() {
        this.chunkedSnapshot = false;
        return this;
    }

    /** The session time zone for TIMESTAMP values, e.g. {@code UTC} or {@code Asia/Shanghai}. */
    public MySqlCdcSourceBuilder<T> serverTimeZone(String serverTimeZone) {
        this.serverTimeZone = serverTimeZone;
        return this;
    }

    public MySqlCdcSourceBuilder<T> startupOptions(StartupOptions startup) {
        this.startup = Objects.requireNonNull(startup);
        return this;
    }

    public MySqlCdcSourceBuilder<T> connectTimeoutMillis(long millis) {
        this.connectTimeoutMillis = millis;
        return this;
    }

    /** A Debezium connector property (what {@code debezium.<key>} sets in SQL). */
    public MySqlCdcSourceBuilder<T> debeziumProperty(String key, String value) {
        debeziumProperties.put(key, value);
        return this;
    }

    /** A JDBC driver property (what {@code jdbc.properties.<key>} sets in SQL). */
    public MySqlCdcSourceBuilder<T> jdbcProperty(String key, String value) {
        jdbcProperties.put(key, value);
        return this;
    }

    public MySqlCdcSourceBuilder<T> deserializer(CdcDeserializer<T> deserializer) {
        this.deserializer = deserializer;
        return this;
    }

    public MySqlCdcSource<T> build() {
        require(hostname != null && !hostname.isBlank(), "'hostname' must be set");
        require(port > 0 && port < 65536, "'port' must be between 1 and 65535, got " + port);
        require(username != null && !username.isBlank(), "'username' must be set");
        require(databaseRegex != null && !databaseRegex.isBlank(), "'database-name' must be set");
        checkRegex("database-name", databaseRegex);
        if (tableRegex != null) {
            checkRegex("table-name", tableRegex);
        }
        require(deserializer != null, "a deserializer must be set");
        require(connectTimeoutMillis > 0, "'connect.timeout' must be positive");
        require(chunkSize > 0, "'scan.incremental.snapshot.chunk.size' must be positive, got " + chunkSize);
        require(serverIdEnd < 0 || (serverId > 0 && serverIdEnd >= serverId),
                "'server-id' range " + serverId + "-" + serverIdEnd + " must be positive and ascending");
        if (serverTimeZone != null) {
            try {
                java.time.ZoneId.of(serverTimeZone);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("Invalid 'server-time-zone' '" + serverTimeZone + "': " + e.getMessage());
            }
        }
        int id = serverId > 0 ? serverId : 5400 + ThreadLocalRandom.current().nextInt(1000);
        MySqlSourceConfig config = new MySqlSourceConfig(hostname, port, username, password, databaseRegex,
                tableRegex, id, serverIdEnd, serverTimeZone, startup, connectTimeoutMillis, debeziumProperties,
                jdbcProperties, chunkedSnapshot, chunkSize, skipTablesWithoutKey);
        return new MySqlCdcSource<>(config, deserializer);
    }

    private static void checkRegex(String option, String regex) {
        try {
            Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("Invalid regular expression in option '" + option + "': " + e.getMessage());
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException("Cannot build the MySQL CDC source: " + message);
        }
    }
}
