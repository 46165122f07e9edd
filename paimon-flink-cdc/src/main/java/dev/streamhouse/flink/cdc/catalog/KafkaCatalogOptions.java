package dev.streamhouse.flink.cdc.catalog;

import dev.streamhouse.flink.cdc.kafka.KafkaSyncSource;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;

/**
 * The options of {@code CREATE CATALOG k WITH ('type' = 'kafka', ...)}: the cluster
 * ({@code properties.bootstrap.servers} and any {@code properties.*} Kafka client property), the CDC
 * format of its topics ({@code value.format}), the name of the one database its topics are tables of
 * ({@code default-database}), how long a look at the cluster may take, and the defaults of the syncs
 * that read it ({@code scan.startup.mode} and the other options of a {@code kafka_sync_*}
 * {@code --kafka_conf} but the topic, which the statement names).
 */
public final class KafkaCatalogOptions {
    private KafkaCatalogOptions() {}

    public static final ConfigOption<String> BOOTSTRAP_SERVERS = ConfigOptions.key(KafkaSyncSource.BOOTSTRAP_SERVERS)
            .stringType().noDefaultValue().withDescription("The Kafka brokers, host:port[,host:port...].");

    public static final ConfigOption<String> VALUE_FORMAT = ConfigOptions.key(KafkaSyncSource.VALUE_FORMAT)
            .stringType().noDefaultValue().withDescription("The CDC format of the topics' records: debezium-json, "
                    + "canal-json, maxwell-json, ogg-json, aws-dms-json or json.");

    public static final ConfigOption<String> DEFAULT_DATABASE = ConfigOptions.key("default-database").stringType()
            .defaultValue("kafka").withDescription("The name of the catalog's one database, whose tables are the "
                    + "cluster's topics.");

    public static final ConfigOption<Duration> TIMEOUT = ConfigOptions.key("lookup.timeout").durationType()
            .defaultValue(Duration.ofSeconds(30)).withDescription("How long listing the topics or reading a topic's "
                    + "first record may take.");
}
