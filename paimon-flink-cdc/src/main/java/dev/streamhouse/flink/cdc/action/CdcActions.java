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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The sync actions, with Apache Paimon's names and arguments: {@code mysql_sync_table} and
 * {@code mysql_sync_database} (also with dashes). Both build one streaming job
 * ({@link SyncJob}); without configured checkpointing they checkpoint every 3 minutes, as Paimon's
 * actions do. {@code sink.parallelism} in {@code --table_conf} sets the writers' parallelism and is not
 * stored as a table option. {@code --computed_column} and {@code --metadata_column} are checked here
 * (syntax, functions, literal arguments, names) and against the source tables before the job is submitted.
 */
public final class CdcActions {
    static final Set<String> COMMON = Set.of("warehouse", "database", "mysql_conf", "catalog_conf", "table_conf",
            "partition_keys", "primary_keys", "computed_column", "metadata_column", "type_mapping");
    static final Set<String> TABLE = union(COMMON, Set.of("table"));
    static final Set<String> DATABASE = union(COMMON, Set.of("including_tables", "excluding_tables", "table_prefix",
            "table_suffix", "ignore_incompatible", "merge_shards", "mode"));

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
        return a.equals("mysql_sync_table") || a.equals("mysql_sync_database") ? a : null;
    }

    /**
     * Reads the action's arguments.
     *
     * @throws IllegalArgumentException naming a wrong, missing or unsupported argument
     */
    static Parsed parse(String action, String[] args, int from) {
        boolean table = action.equals("mysql_sync_table");
        ActionArguments a = ActionArguments.parse(action, args, from, table ? TABLE : DATABASE);
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
                .typeMapping(TypeMapping.parse(a.get("type_mapping")));
        Map<String, String> mysql = a.conf("mysql_conf");
        settings.extraColumns(extraColumns(a)).timeZone(timeZone(mysql));
        String name;
        if (table) {
            String target = a.required("table");
            settings.table(target);
            name = SyncJob.tableSyncName(database, target);
            if (!mysql.containsKey("table-name")) {
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
            name = SyncJob.databaseSyncName(database);
        }
        return new Parsed(new SyncJob(name, mysql, settings.build(), sinkParallelism), a.flinkOptions());
    }

    /** {@code --computed_column} (repeatable) and {@code --metadata_column} (comma-separated, repeatable). */
    private static ExtraColumns extraColumns(ActionArguments a) {
        List<ComputedColumn> computed = new ArrayList<>();
        for (String argument : a.all("computed_column")) {
            computed.add(ComputedColumnParser.parse(argument));
        }
        return ExtraColumns.of(computed, MetadataColumn.parse(a.all("metadata_column")));
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
