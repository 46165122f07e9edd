package dev.streamhouse.flink.procedure;

import dev.streamhouse.flink.sink.PaimonSinkBuilder;
import dev.streamhouse.flink.source.PaimonSource;
import dev.streamhouse.flink.source.PaimonSourceBuilder;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.CompactionBuckets;
import dev.streamhouse.storage.table.source.PartitionRowFilter;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

import java.util.List;
import java.util.Map;

/**
 * {@code CALL sys.rescale(`table` => 'db.t', bucket_num => 4, `partition` => 'dt=1', scan_parallelism
 * => 2, sink_parallelism => 4)}: rewrites the partition (or, without {@code partition}, the whole table)
 * with {@code bucket_num} buckets (default: the table's {@code bucket} option, e.g. after
 * {@code ALTER TABLE t SET ('bucket' = '4')}) as one OVERWRITE snapshot. Arguments are Apache Paimon
 * 1.3.1's; the result is Paimon's synchronous one, {@code Success}.
 *
 * <p>It runs as a Flink batch job on the CALL's environment: our source reads the partition's rows
 * of the latest snapshot ({@code scan_parallelism} readers, default the number of buckets holding
 * files), our sink writes them in overwrite mode with {@code bucket} = {@code bucket_num} as a dynamic
 * option ({@code sink_parallelism} writers, default {@code bucket_num}). The table's {@code bucket}
 * option itself is not changed. A commit made by another job in between (other than a compaction)
 * fails the rescale ({@link RescaleCommit}).
 *
 * <p>Refused with a clear message: a table without snapshot, a partition without data files (both as
 * Paimon), tables with dynamic ({@code -1}) or postpone ({@code -2}) buckets (not supported yet), a
 * {@code bucket_num} or parallelism below 1, and more than one partition spec.
 */
public final class RescaleProcedure implements Procedure {
    static final String NAME = "rescale";

    private final ProcedureCatalog catalog;

    public RescaleProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "bucket_num", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "partition", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "scan_parallelism", type = @DataTypeHint("INT"), isOptional = true),
        @ArgumentHint(name = "sink_parallelism", type = @DataTypeHint("INT"), isOptional = true)
    })
    public String[] call(ProcedureContext context, String table, Integer bucketNum, String partition,
            Integer scanParallelism, Integer sinkParallelism) throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        ObjectPath path = args.table(table, catalog.defaultDatabase());
        Table store = catalog.table(path);
        String name = store.fullName();
        int current = store.schema().numBuckets();
        if (current <= 0) {
            throw new UnsupportedOperationException("Cannot rescale table " + name + ": it has 'bucket' = "
                    + current + " (" + (current == -2 ? "postpone" : "dynamic") + " buckets); rescaling is"
                    + " supported for tables with a fixed bucket count only");
        }
        int buckets = orElse(args.positive("bucket_num", bucketNum), current);
        List<Map<String, String>> specs = args.partitions(partition);
        if (specs.size() > 1) {
            throw args.error("partition", partition, "one partition spec is expected, e.g. 'dt=2024-01-01,hh=01'");
        }
        Map<String, String> spec = specs.isEmpty() ? Map.of() : specs.get(0);
        Snapshot snapshot = store.latestSnapshot().orElseThrow(() -> new IllegalArgumentException(
                "Table " + name + " has no snapshot. No need to rescale."));
        List<CompactionBuckets.Bucket> live = CompactionBuckets.live(store, specs);
        if (live.isEmpty()) {
            throw new IllegalArgumentException("The specified partition does not have any data files. No need to"
                    + " rescale.");
        }
        int readers = orElse(args.positive("scan_parallelism", scanParallelism), live.size());
        int writers = orElse(args.positive("sink_parallelism", sinkParallelism), buckets);

        StreamExecutionEnvironment env = context.getExecutionEnvironment();
        Configuration batch = new Configuration();
        batch.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        env.configure(batch);

        PaimonSourceBuilder source = PaimonSourceBuilder.forTable(store).bounded().snapshotId(snapshot.id());
        PartitionRowFilter.of(store, spec).ifPresent(source::filter);
        PaimonSource built = source.build();
        DataStream<RowData> rows = env.fromSource(built, WatermarkStrategy.noWatermarks(), "Read: " + name,
                built.getProducedType()).setParallelism(readers);
        Table rescaled = store.copy(Map.of("bucket", String.valueOf(buckets)));
        PaimonSinkBuilder.forTable(rescaled)
                .parallelism(writers)
                .commitAction(new RescaleCommit(rescaled, snapshot.id(), spec))
                .forRowData(rows);
        env.execute("Rescale table " + name);
        return new String[] {"Success"};
    }

    private static int orElse(Integer value, int otherwise) {
        return value == null ? otherwise : value;
    }
}
