package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.source.CdcDeserializer;
import dev.streamhouse.flink.cdc.source.MySqlCdcSource;
import dev.streamhouse.flink.cdc.source.MySqlCdcSourceBuilder;
import dev.streamhouse.flink.cdc.table.MySqlSourceConfigs;
import dev.streamhouse.flink.sink.multitable.MultiTableSinkBuilder;
import dev.streamhouse.flink.sink.multitable.TableRow;
import dev.streamhouse.flink.sink.multitable.TableRowTypeInfo;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

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
     * Adds the sync to {@code env}.
     *
     * @param mysqlConf the source's options ({@code --mysql_conf})
     * @param sinkParallelism the writers' parallelism, or null for the environment's
     * @throws IllegalArgumentException naming a missing or unknown source option
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
        String what = settings.singleTable() ? settings.target(null).fullName() : settings.database();
        // The snapshot is read in parallel chunks; the binlog by one reader.
        DataStream<CdcEvent> events = env.fromSource(source, WatermarkStrategy.noWatermarks(), "MySQL CDC source")
                .uid("mysql-cdc-source");
        DataStream<TableRow> rows = events.process(new CdcToTableRows(settings))
                .returns(TableRowTypeInfo.INSTANCE)
                .name("Tables of " + what)
                .uid("cdc-to-table-rows")
                .setParallelism(1);
        MultiTableSinkBuilder sink = MultiTableSinkBuilder.forCatalog(settings.catalogOptions()).name(what)
                .uidPrefix("sync");
        if (sinkParallelism != null) {
            sink.parallelism(sinkParallelism);
        }
        sink.build(rows);
    }
}
