package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.sink.multitable.MultiTableSinkBuilder;
import dev.streamhouse.flink.sink.multitable.TableRow;
import dev.streamhouse.flink.sink.multitable.TableRowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * What every sync does with its source's events, whatever the source: {@link CdcToTableRows} (tables
 * created and evolved, rows converted; parallelism 1, in the order of the events) into the multi-table
 * sink, which commits every table's changes of each checkpoint exactly once.
 */
public final class SyncPipeline {
    private SyncPipeline() {}

    /**
     * @param events the source's events, in the order of each table's changes
     * @param sinkParallelism the writers' parallelism, or null for the environment's
     */
    public static void sinkTo(DataStream<CdcEvent> events, SyncSettings settings, Integer sinkParallelism) {
        String what = settings.singleTable() ? settings.target(null).fullName() : settings.database();
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
