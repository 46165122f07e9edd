package dev.streamhouse.flink.cdc.catalog;

import dev.streamhouse.flink.cdc.kafka.KafkaSyncSource;
import dev.streamhouse.flink.cdc.kafka.KafkaTopics;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Creates {@link KafkaCatalog}s for {@code CREATE CATALOG k WITH ('type' = 'kafka',
 * 'properties.bootstrap.servers' = ..., 'value.format' = ...)} ({@link KafkaCatalogOptions}). Every other
 * option is a default of the syncs that read the catalog's topics, checked as a {@code --kafka_conf}
 * is, so an unknown option fails the CREATE CATALOG naming it; the catalog lists the topics once when
 * it opens, so an unreachable cluster fails it too.
 */
public final class KafkaCatalogFactory implements CatalogFactory {
    /** The catalog type, {@code 'type' = 'kafka'}. */
    public static final String IDENTIFIER = "kafka";

    /** Catalog options that are not Kafka options of its syncs. */
    public static final Set<String> CATALOG_ONLY = Set.of(FactoryUtil.PROPERTY_VERSION.key(),
            KafkaCatalogOptions.DEFAULT_DATABASE.key(), KafkaCatalogOptions.TIMEOUT.key(), "type");

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(KafkaCatalogOptions.BOOTSTRAP_SERVERS, KafkaCatalogOptions.VALUE_FORMAT);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(KafkaCatalogOptions.DEFAULT_DATABASE, KafkaCatalogOptions.TIMEOUT);
    }

    /** The Kafka options of a kafka catalog's syncs: its options but the catalog's own. */
    public static Map<String, String> syncOptions(Map<String, String> catalogOptions) {
        Map<String, String> kafka = new LinkedHashMap<>(catalogOptions);
        kafka.keySet().removeAll(CATALOG_ONLY);
        return kafka;
    }

    @Override
    public KafkaCatalog createCatalog(Context context) {
        String name = context.getName();
        Map<String, String> kafka = syncOptions(context.getOptions());
        for (String key : new String[] {KafkaSyncSource.TOPIC, KafkaSyncSource.TOPIC_PATTERN}) {
            if (kafka.containsKey(key)) {
                throw new ValidationException("Cannot create catalog '" + name + "': option '" + key + "' is not one "
                        + "of a kafka catalog; its tables are the topics, and statements name them");
            }
        }
        String where = "catalog '" + name + "' option";
        Map<String, String> check = new LinkedHashMap<>(kafka);
        check.put(KafkaSyncSource.TOPIC, "t");
        check.putIfAbsent(KafkaSyncSource.GROUP_ID, "g");
        String format;
        Configuration options = Configuration.fromMap(context.getOptions());
        Duration timeout;
        try {
            format = KafkaSyncSource.of(check, where).format();
            timeout = options.get(KafkaCatalogOptions.TIMEOUT);
        } catch (IllegalArgumentException e) {
            throw new ValidationException("Cannot create catalog '" + name + "': " + e.getMessage(), e);
        }
        return new KafkaCatalog(name, options.get(KafkaCatalogOptions.DEFAULT_DATABASE), kafka, format,
                new KafkaTopics(kafka, timeout));
    }
}
