package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.kafka.KafkaSync;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.time.Duration;
import java.util.Map;

/**
 * A configured sync, ready to be added to an environment: what the sync actions and the SQL runner's
 * {@code CREATE TABLE ... AS TABLE} / {@code CREATE DATABASE ... AS DATABASE} build.
 *
 * @param name the job's name
 * @param source where the changes come from
 * @param sourceConf the source's options ({@code mysql-cdc} names for MySQL, Flink's Kafka connector's for Kafka)
 * @param sinkParallelism the writers' parallelism, or null for the environment's
 */
public record SyncJob(String name, Source source, Map<String, String> sourceConf, SyncSettings settings,
        Integer sinkParallelism) {
    /** The checkpoint interval of a sync when none is configured, as Apache Paimon's actions have it. */
    public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofMinutes(3);
    /** The table option that sets the writers' parallelism instead of being stored with the table. */
    public static final String SINK_PARALLELISM = "sink.parallelism";

    /** The sources a sync reads. */
    public enum Source {
        MYSQL("MySQL"),
        KAFKA("Kafka");

        private final String displayName;

        Source(String displayName) {
            this.displayName = displayName;
        }

        public String displayName() {
            return displayName;
        }
    }

    public SyncJob {
        sourceConf = Map.copyOf(sourceConf);
    }

    /** The name of a table sync into {@code database.table}, as Apache Paimon's actions name theirs. */
    public static String tableSyncName(Source source, String database, String table) {
        return source.displayName() + "-Paimon Table Sync: " + database + "." + table;
    }

    /** The name of a database sync into {@code database}. */
    public static String databaseSyncName(Source source, String database) {
        return source.displayName() + "-Paimon Database Sync: " + database;
    }

    /**
     * Removes {@link #SINK_PARALLELISM} from {@code tableOptions} and returns it, or null when absent.
     *
     * @param where where the options come from, for messages (e.g. {@code --table_conf})
     * @throws IllegalArgumentException when it is not a positive number
     */
    public static Integer removeSinkParallelism(Map<String, String> tableOptions, String where) {
        String value = tableOptions.remove(SINK_PARALLELISM);
        if (value == null) {
            return null;
        }
        try {
            int parallelism = Integer.parseInt(value.trim());
            if (parallelism > 0) {
                return parallelism;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(where + " " + SINK_PARALLELISM + "=" + value + " is not a positive number");
    }

    public void addTo(StreamExecutionEnvironment env) {
        switch (source) {
            case MYSQL:
                MySqlSync.addTo(env, sourceConf, settings, sinkParallelism);
                break;
            case KAFKA:
                KafkaSync.addTo(env, sourceConf, settings, sinkParallelism);
                break;
            default:
                throw new IllegalStateException(source.name());
        }
    }

    /**
     * The Flink configuration of the job: {@code flinkOptions}, a checkpoint interval of
     * {@link #DEFAULT_CHECKPOINT_INTERVAL} unless they set one, and the job's name unless they set one.
     */
    public Configuration configuration(Map<String, String> flinkOptions) {
        return configuration(new Configuration(), flinkOptions);
    }

    /**
     * The same on top of a {@code context} that is already configured, e.g. a cluster's configuration
     * under {@code flink run}: the default checkpoint interval only when neither sets one. The result
     * holds {@code flinkOptions} and the defaults, not the context's own settings.
     */
    public Configuration configuration(ReadableConfig context, Map<String, String> flinkOptions) {
        Configuration conf = Configuration.fromMap(flinkOptions);
        if (!conf.contains(CheckpointingOptions.CHECKPOINTING_INTERVAL)
                && context.getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL).isEmpty()) {
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, DEFAULT_CHECKPOINT_INTERVAL);
        }
        if (!conf.contains(PipelineOptions.NAME)) {
            conf.set(PipelineOptions.NAME, name);
        }
        return conf;
    }
}
