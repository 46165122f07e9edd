package dev.streamhouse.flink.procedure;

import dev.streamhouse.flink.sink.FlinkSinkOptions;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.flink.sink.compact.CompactJob;
import dev.streamhouse.storage.table.sink.CompactionBuckets;
import dev.streamhouse.storage.table.sink.UncommittedCompactionFiles;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.table.procedures.Procedure;

import java.util.List;
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
 * <p>The buckets to compact (live in the latest snapshot, in the given partitions) are listed in the
 * caller; the compaction itself runs as a Flink batch job on the CALL's execution environment
 * ({@link CompactJob}): {@code sink.parallelism} (default: the environment's parallelism) subtasks
 * compact buckets, one committer commits their files as one COMPACT snapshot. If the job fails
 * (a bucket cannot be read, a concurrent commit conflicts) the CALL fails, nothing is committed and
 * the job's new files are deleted: the committer deletes those it received, and the CALL deletes the
 * rest, found by the file name prefix the job's writers use ({@link UncommittedCompactionFiles};
 * {@link CompactRun}).
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
        String name = path.getFullName();
        List<CompactionBuckets.Bucket> buckets = CompactionBuckets.live(compacted, args.partitions(partitions));
        if (buckets.isEmpty()) {
            return new String[] {"Nothing to compact in " + name + " (0 buckets checked)"};
        }
        CompactRun.Outcome outcome = CompactRun.run(context.getExecutionEnvironment(), compacted, buckets, full,
                parallelism);
        if (outcome.snapshotId().isEmpty()) {
            return new String[] {"Nothing to compact in " + name + " (" + buckets.size() + " buckets checked)"};
        }
        return new String[] {"Compacted " + outcome.changedBuckets() + " of " + buckets.size() + " buckets of "
                + name + " into snapshot " + outcome.snapshotId().get()};
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
