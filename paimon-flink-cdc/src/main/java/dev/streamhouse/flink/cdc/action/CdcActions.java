package dev.streamhouse.flink.cdc.action;

import dev.streamhouse.flink.catalog.FlinkCatalogOptions;
import dev.streamhouse.flink.cdc.sync.SyncJob;
import dev.streamhouse.flink.cdc.sync.SyncSettings;
import dev.streamhouse.flink.cdc.sync.TypeMapping;
import dev.streamhouse.flink.cdc.sync.columns.ComputedColumn;
import dev.streamhouse.flink.cdc.sync.columns.ComputedColumnParser;
import dev.streamhouse.flink.cdc.sync.columns.ExtraColumns;
import dev.streamhouse.flink.cdc.sync.columns.MetadataColumn;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The sync actions, with Apache Paimon's names and arguments: {@code mysql_sync_table},
 * {@code mysql_sync_database}, {@code kafka_sync_table} and {@code kafka_sync_database} (also with
 * dashes). Each builds one streaming job
 * ({@link SyncJob}); without configured checkpointing they checkpoint every 3 minutes, as Paimon's
 * actions do. {@code sink.parallelism} in {@code --table_conf} sets the writers' parallelism and is not
 * stored as a table option. {@code --computed_column} and {@code --metadata_column} are checked here
 * (syntax, functions, literal arguments, names) and against the source tables before the job is submitted.
 */
public final class CdcActions {
    static final Set<String> COMMON = Set.of("warehouse", "database", "catalog_conf", "table_conf",
            "partition_keys", "primary_keys", "computed_column", "metadata_column", "type_mapping");
    static final Set<String> TABLE = union(COMMON, Set.of("table"));
    static final Set<String> DATABASE = union(COMMON, Set.of("including_tables", "excluding_tables", "table_prefix",
            "table_suffix", "ignore_incompatible", "merge_shards", "mode"));
    static final Set<String> MYSQL_TABLE = union(TABLE, Set.of("mysql_conf"));
    static final Set<String> MYSQL_DATABASE = union(DATABASE, Set.of("mysql_conf"));
    static final Set<String> KAFKA_TABLE = union(TABLE, Set.of("kafka_conf"));
    static final Set<String> KAFKA_DATABASE = union(DATABASE, Set.of("kafka_conf", "table_mapping",
            "multiple_table_partition_keys"));
    /** The actions, with underscores. */
    static final List<String> ACTIONS = List.of("mysql_sync_table", "mysql_sync_database", "kafka_sync_table",
            "kafka_sync_database");

    private CdcActions() {}

    /** A parsed action: its sync and the Flink options of its {@code -D} arguments. */
    record Parsed(SyncJob job, Map<String, String> flinkOptions) {
        /** The Flink configuration of the job: the -D options, a checkpoint interval, the job name. */
        Configuration configuration() {
            return job.configuration(flinkOptions);
        }

        /** The same on top of an already configured context (a cluster's configuration under {@code flink run}). */
        Configuration configuration(ReadableConfig context) {
            return job.configuration(context, flinkOptions);
        }
    }

    /** The action's name as given, normalized to underscores; null if it is no sync action. */
    static String normalize(String action) {
        String a = action.toLowerCase(Locale.ROOT).replace('-', '_');
        return ACTIONS.contains(a) ? a : null;
    }

    /**
     * Reads the action's arguments.
     *
     * @throws IllegalArgumentException naming a wrong, missing or unsupported argument
     */
    static Parsed parse(String action, String[] args, int from) {
        boolean table = action.endsWith("_sync_table");
        SyncJob.Source source = action.startsWith("kafka_") ? SyncJob.Source.KAFKA : SyncJob.Source.MYSQL;
        boolean kafka = source == SyncJob.Source.KAFKA;
        ActionArguments a = ActionArguments.parse(action, args, from,
                kafka ? (table ? KAFKA_TABLE : KAFKA_DATABASE) : (table ? MYSQL_TABLE : MYSQL_DATABASE));
        Map<String, String> catalog = new LinkedHashMap<>(a.conf("catalog_conf"));
        catalog.put("warehouse", a.required("warehouse"));
        // The catalog's table-default.* options are the defaults of the tables the sync creates (as a
        // paimon catalog applies them to CREATE TABLE); --table_conf wins over them.
        Map<String, String> tableConf = new HashMap<>(FlinkCatalogOptions.tableDefaults(catalog));
        tableConf.putAll(a.conf("table_conf"));
        Integer sinkParallelism = SyncJob.removeSinkParallelism(tableConf, "--table_conf");
        String database = a.required("database");
        SyncSettings.Builder settings = SyncSettings.builder()
                .catalogOptions(catalog)
                .database(database)
                .primaryKeys(a.list("primary_keys"))
                .partitionKeys(a.list("partition_keys"))
                .tableOptions(tableConf)
                .typeMapping(TypeMapping.parse(a.get("type_mapping")))
                .keylessAsAppend(kafka);
        Map<String, String> sourceConf = a.conf(kafka ? "kafka_conf" : "mysql_conf");
        settings.extraColumns(extraColumns(a, kafka)).timeZone(kafka ? ZoneId.systemDefault() : timeZone(sourceConf));
        String name;
        if (table) {
            String target = a.required("table");
            settings.table(target);
            name = SyncJob.tableSyncName(source, database, target);
            if (!kafka && !sourceConf.containsKey("table-name")) {
                throw new IllegalArgumentException(action + " needs --mysql_conf table-name=<regex of the source tables>");
            }
        } else {
            String mode = a.get("mode");
            if (mode != null && !mode.equalsIgnoreCase("divided") && !mode.equalsIgnoreCase("combined")) {
                throw new IllegalArgumentException("Argument --mode of " + action + " is divided or combined, not '"
                        + mode + "'");
            }
            settings.including(a.get("including_tables"))
                    .excluding(a.get("excluding_tables"))
                    .tablePrefix(a.get("table_prefix"))
                    .tableSuffix(a.get("table_suffix"))
                    .ignoreIncompatible(a.bool("ignore_incompatible", false))
                    .mergeShards(a.bool("merge_shards", true));
            if (kafka) {
                settings.tableMapping(a.conf("table_mapping"))
                        .tablePartitionKeys(tablePartitionKeys(a.conf("multiple_table_partition_keys")));
            }
            name = SyncJob.databaseSyncName(source, database);
        }
        return new Parsed(new SyncJob(name, source, sourceConf, settings.build(), sinkParallelism), a.flinkOptions());
    }

    /** {@code --multiple_table_partition_keys orders=dt,hh}: partition keys by source table. */
    private static Map<String, List<String>> tablePartitionKeys(Map<String, String> conf) {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        conf.forEach((t, columns) -> keys.put(t, Arrays.stream(columns.split(",")).map(String::trim)
                .filter(c -> !c.isEmpty()).toList()));
        return keys;
    }

    /** {@code --computed_column} (repeatable) and {@code --metadata_column} (comma-separated, repeatable). */
    private static ExtraColumns extraColumns(ActionArguments a, boolean kafka) {
        List<ComputedColumn> computed = new ArrayList<>();
        for (String argument : a.all("computed_column")) {
            computed.add(ComputedColumnParser.parse(argument));
        }
        return ExtraColumns.of(computed, MetadataColumn.parse(a.all("metadata_column"), kafka));
    }

    /** The zone of {@code server-time-zone}, else this JVM's (where Paimon's action reads it too). */
    private static ZoneId timeZone(Map<String, String> mysqlConf) {
        String zone = mysqlConf.get("server-time-zone");
        if (zone == null) {
            return ZoneId.systemDefault();
        }
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("--mysql_conf server-time-zone=" + zone + " is not a time zone ("
                    + e.getMessage() + ")");
        }
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        java.util.Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }
}
