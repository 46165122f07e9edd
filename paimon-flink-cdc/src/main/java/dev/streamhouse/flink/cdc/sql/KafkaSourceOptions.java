package dev.streamhouse.flink.cdc.sql;

import dev.streamhouse.flink.cdc.catalog.KafkaCatalogFactory;
import dev.streamhouse.flink.cdc.catalog.KafkaCatalogOptions;
import dev.streamhouse.flink.cdc.kafka.KafkaSyncSource;
import dev.streamhouse.flink.cdc.sql.SessionCatalogs.CatalogDefinition;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code --kafka_conf} of a sync statement whose source is a {@code 'type' = 'kafka'} catalog: the
 * catalog's Kafka options, the topics the statement names, a consumer group of the sync's own unless
 * one is given, and the hint's options (which win); checked as a {@code kafka_sync_*} action checks
 * them, and the cluster asked whether the topics exist, before the job is built.
 */
final class KafkaSourceOptions {
    private KafkaSourceOptions() {}

    /** For a table sync of {@code topic}, of the catalog's database {@code database}. */
    static Map<String, String> forTopic(String kind, String catalog, CatalogDefinition definition, String database,
            String topic, Map<String, String> hint, String group) {
        checkDatabase(kind, catalog, definition, database);
        Map<String, String> conf = base(definition, group);
        conf.put(KafkaSyncSource.TOPIC, topic);
        return checked(kind, catalog, conf, hint);
    }

    /** For a database sync of the topics matching {@code topicPattern}. */
    static Map<String, String> forTopics(String kind, String catalog, CatalogDefinition definition, String database,
            String topicPattern, Map<String, String> hint, String group) {
        checkDatabase(kind, catalog, definition, database);
        Map<String, String> conf = base(definition, group);
        conf.put(KafkaSyncSource.TOPIC_PATTERN, topicPattern);
        return checked(kind, catalog, conf, hint);
    }

    private static Map<String, String> base(CatalogDefinition definition, String group) {
        Map<String, String> conf = new LinkedHashMap<>(KafkaCatalogFactory.syncOptions(definition.options()));
        conf.putIfAbsent(KafkaSyncSource.GROUP_ID, group);
        return conf;
    }

    private static void checkDatabase(String kind, String catalog, CatalogDefinition definition, String database) {
        String only = definition.options().getOrDefault(KafkaCatalogOptions.DEFAULT_DATABASE.key(),
                KafkaCatalogOptions.DEFAULT_DATABASE.defaultValue());
        if (!only.equals(database)) {
            throw new IllegalArgumentException("Cannot run " + kind + ": kafka catalog '" + catalog + "' has one "
                    + "database, '" + only + "', whose tables are its topics; there is no database '" + database + "'");
        }
    }

    private static Map<String, String> checked(String kind, String catalog, Map<String, String> conf,
            Map<String, String> hint) {
        for (Map.Entry<String, String> e : hint.entrySet()) {
            if (e.getKey().equals(KafkaSyncSource.TOPIC) || e.getKey().equals(KafkaSyncSource.TOPIC_PATTERN)) {
                throw new IllegalArgumentException("Cannot run " + kind + ": option '" + e.getKey() + "' cannot be "
                        + "given in the hint; the statement's source names the topics");
            }
            conf.put(e.getKey(), e.getValue());
        }
        KafkaSyncSource source;
        try {
            source = KafkaSyncSource.of(conf, "source option (catalog '" + catalog + "' or hint)");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot run " + kind + ": " + e.getMessage(), e);
        }
        try {
            source.preflight();
        } catch (IllegalStateException e) {
            throw new IllegalStateException("Cannot run " + kind + ": " + e.getMessage(), e);
        }
        return conf;
    }
}
