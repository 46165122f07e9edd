package dev.streamhouse.flink.procedure;

import dev.streamhouse.flink.sink.FlinkSinkOptions;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableCompactor;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

import java.util.Locale;
import java.util.Map;

/**
 * {@code CALL sys.compact(`table` => 'db.t', partitions => 'dt=1;dt=2', compact_strategy => 'full')}:
 * compacts a table now and commits one COMPACT snapshot (primary-key tables: their LSM levels;
 * append tables: their small files merged). Arguments and their order are
 * Apache Paimon's; {@code options} are dynamic table options for this compaction
 * ({@code sink.parallelism} sets how many buckets are compacted at once, default: the job's
 * parallelism). Sort compaction ({@code order_strategy}, {@code order_by}), {@code where} and
 * {@code partition_idle_time} are refused with a clear error.
 *
 * <p>The compaction runs in the JVM that executes the CALL (the SQL client or the application), not
 * as a cluster job: it reads and rewrites the table's files directly, so it suits tables whose buckets
 * one machine can rewrite.
 */
public final class CompactProcedure implements Procedure {
    static final String NAME = "compact";
    private static final String SINK_PARALLELISM = FlinkSinkOptions.SINK_PARALLELISM.key();

    private final ProcedureCatalog catalog;

    public CompactProcedure(ProcedureCatalog catalog) {
        this.catalog = catalog;
    }

    @ProcedureHint(argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "partitions", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "order_strategy", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "order_by", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "options", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "where", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "partition_idle_time", type = @DataTypeHint("STRING"), isOptional = true),
        @ArgumentHint(name = "compact_strategy", type = @DataTypeHint("STRING"), isOptional = true)
    })
    public String[] call(ProcedureContext context, String table, String partitions, String orderStrategy,
            String orderBy, String options, String where, String partitionIdleTime, String compactStrategy)
            throws Exception {
        ProcedureArguments args = new ProcedureArguments(NAME);
        args.refuse("order_strategy", orderStrategy, "sort compaction");
        args.refuse("order_by", orderBy, "sort compaction");
        args.refuse("where", where, "a partition predicate; use 'partitions'");
        args.refuse("partition_idle_time", partitionIdleTime, "compacting only idle partitions");
        ObjectPath path = args.table(table, catalog.defaultDatabase());
        boolean full = fullCompaction(args, compactStrategy);
        Map<String, String> dynamic = args.options(options);
        int parallelism = parallelism(args, options, dynamic, context.getExecutionEnvironment().getParallelism());
        dynamic.remove(SINK_PARALLELISM);

        Table compacted = catalog.table(path);
        if (!dynamic.isEmpty()) {
            compacted = compacted.copy(dynamic);
        }
        TableCompactor.Result result = TableCompactor.forTable(compacted)
                .withPartitions(args.partitions(partitions))
                .withFullCompaction(full)
                .withParallelism(parallelism)
                .compact();
        String name = path.getFullName();
        if (result.snapshotId().isEmpty()) {
            return new String[] {"Nothing to compact in " + name + " (" + result.buckets() + " buckets checked)"};
        }
        return new String[] {"Compacted " + result.changedBuckets() + " of " + result.buckets() + " buckets of "
                + name + " into snapshot " + result.snapshotId().get()};
    }

    private static boolean fullCompaction(ProcedureArguments args, String compactStrategy) {
        if (ProcedureArguments.isBlank(compactStrategy)) {
            return true;
        }
        switch (compactStrategy.trim().toLowerCase(Locale.ROOT)) {
            case "full":
                return true;
            case "minor":
                return false;
            default:
                throw args.error("compact_strategy", compactStrategy, "expected 'full' or 'minor'");
        }
    }

    private static int parallelism(ProcedureArguments args, String options, Map<String, String> dynamic,
            int jobParallelism) {
        String value = dynamic.get(SINK_PARALLELISM);
        if (value == null) {
            return Math.max(1, jobParallelism);
        }
        try {
            int p = Integer.parseInt(value);
            if (p >= 1) {
                return p;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw args.error("options", options, "'" + SINK_PARALLELISM + "' must be a positive integer");
    }
}
