package dev.streamhouse.flink.cdc.debezium;

import dev.streamhouse.flink.cdc.mysql.ServerFlavor;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The Debezium engine and connector properties of one engine run: the server and tables from the
 * source config, offsets and schema history in Flink state, and the value representations
 * {@link ConnectValues} reads. A user's {@code debezium.*} properties come last and may change
 * anything but the few this source depends on.
 */
public final class DebeziumProperties {

    /** The connector's logical name: the schema-change topic and the prefix of data topics. */
    public static final String TOPIC_PREFIX = "streamhouse_cdc";

    /** Debezium's extra key=value pairs for its MBean names; an {@code engine} tag is always added. */
    public static final String METRIC_TAGS = "custom.metric.tags";

    private static final Set<String> RESERVED = Set.of("connector.class", "name", "topic.prefix",
            "offset.storage", "schema.history.internal", "include.schema.changes", "column.propagate.source.type",
            "decimal.handling.mode", "bigint.unsigned.handling.mode", "binary.handling.mode", "time.precision.mode",
            "snapshot.mode", "tombstones.on.delete", "database.include.list", "table.include.list");

    private DebeziumProperties() {}

    /** How the connector starts: Debezium's snapshot mode for the state it is given. */
    public enum Start {
        /** No offset yet: snapshot the tables' data, then read the binlog. */
        SNAPSHOT("initial"),
        /** An offset and no schema history: read the current table schemas, then the binlog from the offset. */
        FROM_OFFSET_WITHOUT_HISTORY("recovery"),
        /** An offset and its schema history: continue from the offset. */
        RESUME("initial");

        private final String snapshotMode;

        Start(String snapshotMode) {
            this.snapshotMode = snapshotMode;
        }
    }

    public static Properties build(MySqlSourceConfig config, ServerFlavor flavor, Start start,
            String restoredOffsetJson, String historyId) {
        return build(config, flavor, start, restoredOffsetJson, historyId, config.serverId());
    }

    /** With the replica server id of the reader that runs the engine. */
    public static Properties build(MySqlSourceConfig config, ServerFlavor flavor, Start start,
            String restoredOffsetJson, String historyId, int serverId) {
        for (String key : config.debeziumProperties().keySet()) {
            if (RESERVED.contains(key) || key.startsWith("offset.") || key.startsWith("schema.history.internal")) {
                throw new IllegalArgumentException("Option 'debezium." + key + "' cannot be set: the MySQL CDC source "
                        + "sets it itself (offsets and schema history live in Flink state)");
            }
        }
        Properties p = new Properties();
        p.setProperty("name", "streamhouse-mysql-cdc");
        p.setProperty("connector.class", flavor.connectorClass());
        p.setProperty("topic.prefix", TOPIC_PREFIX);
        p.setProperty("database.hostname", config.hostname());
        p.setProperty("database.port", Integer.toString(config.port()));
        p.setProperty("database.user", config.username());
        p.setProperty("database.password", config.password());
        p.setProperty("database.server.id", Integer.toString(serverId));
        p.setProperty("database.include.list", config.databaseRegex());
        if (config.tableRegex() != null) {
            p.setProperty("table.include.list", "(" + config.databaseRegex() + ")\\.(" + config.tableRegex() + ")");
        }
        if (config.serverTimeZone() != null) {
            p.setProperty("database.connectionTimeZone", config.serverTimeZone());
        }
        p.setProperty("connect.timeout.ms", Long.toString(config.connectTimeoutMillis()));
        for (Map.Entry<String, String> e : config.jdbcProperties().entrySet()) {
            p.setProperty("driver." + e.getKey(), e.getValue());
        }
        p.setProperty("snapshot.mode", start.snapshotMode);
        p.setProperty("include.schema.changes", "true");
        p.setProperty("tombstones.on.delete", "false");
        p.setProperty("column.propagate.source.type", ".*");
        p.setProperty("decimal.handling.mode", "precise");
        p.setProperty("bigint.unsigned.handling.mode", "precise");
        p.setProperty("binary.handling.mode", "bytes");
        p.setProperty("time.precision.mode", "adaptive_time_microseconds");
        p.setProperty("offset.storage", StateOffsetBackingStore.class.getName());
        p.setProperty("offset.flush.interval.ms", "60000");
        if (restoredOffsetJson != null) {
            p.setProperty(StateOffsetBackingStore.OFFSET_PROPERTY, restoredOffsetJson);
        }
        p.setProperty("schema.history.internal", StateSchemaHistory.class.getName());
        p.setProperty(SchemaHistoryRegistry.ID_PROPERTY, historyId);
        p.setProperty("schema.history.internal.store.only.captured.tables.ddl", "true");
        p.setProperty("heartbeat.interval.ms", "1000");
        p.putAll(config.debeziumProperties());
        // Debezium names its JMX MBeans after the connector and topic prefix: two engines in one JVM
        // (two readers in a TaskManager, or a reader restarted there) would collide without a tag of their own.
        String tags = p.getProperty(METRIC_TAGS);
        String engineTag = "engine=" + historyId;
        p.setProperty(METRIC_TAGS, tags == null || tags.isBlank() ? engineTag : tags + "," + engineTag);
        return p;
    }
}
