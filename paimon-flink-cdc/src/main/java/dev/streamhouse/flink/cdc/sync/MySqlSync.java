package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.mysql.ServerChecks;
import dev.streamhouse.flink.cdc.mysql.TableDiscovery;
import dev.streamhouse.flink.cdc.source.CdcDeserializer;
import dev.streamhouse.flink.cdc.source.MySqlCdcSource;
import dev.streamhouse.flink.cdc.source.MySqlCdcSourceBuilder;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.table.MySqlSourceConfigs;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * A MySQL sync as one Flink job: the {@code mysql-cdc} source (a parallel chunked snapshot, then one
 * binlog connection for every captured table), {@link CdcToTableRows} (tables created and evolved,
 * rows converted, parallelism 1 in the order of the changes), and the multi-table sink, which commits every table's changes of each checkpoint
 * exactly once. New tables that match the capture pattern are picked up while the job runs.
 */
public final class MySqlSync {
    private MySqlSync() {}

    /**
     * Checks, before the job is submitted, what would otherwise fail the job again at every restart:
     * that the server accepts the user, has the binlog settings and privileges a sync needs, (for a
     * table sync) that some table matches, and that the computed and metadata columns fit the tables
     * the sync takes now and a table sync's partition keys are columns ({@link TargetColumns#checkAtStart}).
     *
     * @throws IllegalStateException naming the server and what to fix
     * @throws IllegalArgumentException naming a computed column, metadata column or partition key that
     *     does not fit a source table
     */
    static void preflight(MySqlSourceConfig config, SyncSettings settings) {
        try (Connection connection = MySqlConnections.open(config)) {
            ServerChecks.check(connection, config);
            boolean checkColumns = !settings.extraColumns().isEmpty()
                    || (settings.singleTable() && !settings.partitionKeys().isEmpty());
            if (!settings.singleTable() && !checkColumns) {
                return;
            }
            List<CdcSchema> tables = TableDiscovery.capturedTables(connection, config);
            if (settings.singleTable() && tables.isEmpty()) {
                throw new IllegalStateException("Cannot sync into table " + settings.target(null).fullName()
                        + ": no table on MySQL server " + config.address() + " matches 'database-name' = '"
                        + config.databaseRegex() + "' and 'table-name' = '" + config.tableRegex()
                        + "' (or user '" + config.username() + "' may not SELECT from it)");
            }
            if (checkColumns) {
                TargetColumns.checkAtStart(settings, tables);
            }
        } catch (SQLException e) {
            throw MySqlConnections.connectFailure(config, e);
        }
    }

    /**
     * Adds the sync to {@code env}, after a {@linkplain #preflight check} of the server.
     *
     * @param mysqlConf the source's options ({@code --mysql_conf})
     * @param sinkParallelism the writers' parallelism, or null for the environment's
     * @throws IllegalArgumentException naming a missing or unknown source option, or computed or metadata
     *     columns or partition keys that do not fit the source tables
     * @throws IllegalStateException if the server refuses the user, lacks binlog settings or privileges
     */
    public static void addTo(StreamExecutionEnvironment env, Map<String, String> mysqlConf, SyncSettings settings,
            Integer sinkParallelism) {
        MySqlCdcSourceBuilder<CdcEvent> builder = MySqlSourceConfigs.<CdcEvent>builder(mysqlConf, "--mysql_conf")
                .deserializer(CdcDeserializer.events());
        if (!settings.singleTable() && settings.primaryKeys().isEmpty()) {
            // A database sync takes only tables with a primary key; the others are not read either.
            builder.snapshotSkippingTablesWithoutKey();
        }
        MySqlCdcSource<CdcEvent> source = builder.build();
        preflight(source.config(), settings);
        // The snapshot is read in parallel chunks; the binlog by one reader.
        DataStream<CdcEvent> events = env.fromSource(source, WatermarkStrategy.noWatermarks(), "MySQL CDC source")
                .uid("mysql-cdc-source");
        SyncPipeline.sinkTo(events, settings, sinkParallelism);
    }
}
