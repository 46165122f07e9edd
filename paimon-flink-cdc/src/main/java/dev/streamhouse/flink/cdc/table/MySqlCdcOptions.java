package dev.streamhouse.flink.cdc.table;

import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/** The options of the {@code mysql-cdc} connector, with Flink CDC's names and defaults. */
public final class MySqlCdcOptions {

    private MySqlCdcOptions() {}

    public static final ConfigOption<String> HOSTNAME = ConfigOptions.key("hostname").stringType().noDefaultValue()
            .withDescription("Host name or IP address of the MySQL or MariaDB server.");
    public static final ConfigOption<Integer> PORT = ConfigOptions.key("port").intType().defaultValue(3306)
            .withDescription("Port of the server.");
    public static final ConfigOption<String> USERNAME = ConfigOptions.key("username").stringType().noDefaultValue()
            .withDescription("User to connect as; needs SELECT, REPLICATION SLAVE and REPLICATION CLIENT.");
    public static final ConfigOption<String> PASSWORD = ConfigOptions.key("password").stringType().noDefaultValue()
            .withDescription("Password of the user.");
    public static final ConfigOption<String> DATABASE_NAME = ConfigOptions.key("database-name").stringType()
            .noDefaultValue().withDescription("Regular expression for the databases to read.");
    public static final ConfigOption<String> TABLE_NAME = ConfigOptions.key("table-name").stringType()
            .noDefaultValue().withDescription("Regular expression for the tables to read (names without database).");
    public static final ConfigOption<String> SERVER_ID = ConfigOptions.key("server-id").stringType()
            .noDefaultValue().withDescription("Replica server ids of the readers' binlog connections: a range "
                    + "'5400-5408' with at least one id per reader, or a number, from which reader i uses the "
                    + "number + i; random in 5400-6400 when unset.");
    public static final ConfigOption<String> SERVER_TIME_ZONE = ConfigOptions.key("server-time-zone").stringType()
            .noDefaultValue().withDescription("Session time zone of the server, e.g. 'UTC', for TIMESTAMP values.");
    public static final ConfigOption<String> SCAN_STARTUP_MODE = ConfigOptions.key("scan.startup.mode")
            .stringType().defaultValue("initial")
            .withDescription("initial, latest-offset, earliest-offset, specific-offset or timestamp.");
    public static final ConfigOption<String> SCAN_STARTUP_SPECIFIC_OFFSET_FILE =
            ConfigOptions.key("scan.startup.specific-offset.file").stringType().noDefaultValue()
                    .withDescription("Binlog file of the 'specific-offset' start.");
    public static final ConfigOption<Long> SCAN_STARTUP_SPECIFIC_OFFSET_POS =
            ConfigOptions.key("scan.startup.specific-offset.pos").longType().noDefaultValue()
                    .withDescription("Binlog position of the 'specific-offset' start.");
    public static final ConfigOption<String> SCAN_STARTUP_SPECIFIC_OFFSET_GTID_SET =
            ConfigOptions.key("scan.startup.specific-offset.gtid-set").stringType().noDefaultValue()
                    .withDescription("GTID set of the 'specific-offset' start.");
    public static final ConfigOption<Long> SCAN_STARTUP_TIMESTAMP_MILLIS =
            ConfigOptions.key("scan.startup.timestamp-millis").longType().noDefaultValue()
                    .withDescription("Epoch milliseconds of the 'timestamp' start.");
    public static final ConfigOption<Duration> CONNECT_TIMEOUT = ConfigOptions.key("connect.timeout")
            .durationType().defaultValue(Duration.ofSeconds(30))
            .withDescription("How long to wait for a connection to the server.");

    public static final ConfigOption<Boolean> SCAN_INCREMENTAL_SNAPSHOT_ENABLED =
            ConfigOptions.key("scan.incremental.snapshot.enabled").booleanType().defaultValue(true)
                    .withDescription("Snapshot in parallel chunks by primary key, lock-free, with checkpoints during "
                            + "the snapshot; false uses Debezium's single-threaded snapshot, during which "
                            + "checkpoints are skipped.");
    public static final ConfigOption<Integer> SCAN_INCREMENTAL_SNAPSHOT_CHUNK_SIZE =
            ConfigOptions.key("scan.incremental.snapshot.chunk.size").intType().defaultValue(8096)
                    .withDescription("Rows per chunk of the parallel snapshot.");

    /** Prefix of options passed to Debezium's connector. */
    public static final String DEBEZIUM_PREFIX = "debezium.";
    /** Prefix of options passed to the JDBC driver. */
    public static final String JDBC_PREFIX = "jdbc.properties.";
}
