package dev.streamhouse.flink.sink.orphan;

import dev.streamhouse.flink.sink.ChainedOperatorFactory;
import dev.streamhouse.storage.maintenance.orphan.TableOrphanFiles;
import dev.streamhouse.storage.table.Table;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

import java.util.ArrayList;
import java.util.List;

/**
 * Removes the orphan files of tables as a Flink batch job, spread over the tables' searched
 * directories ({@link TableOrphanFiles#searchedDirectories()}: partitions or buckets, and the
 * manifest, index and statistics directories):
 *
 * <pre>
 *   (table, directory) units (listed by the caller, parallelism 1) --rebalance-->
 *   {@link DirectoryCleanOperator} (parallelism p) --> discard
 * </pre>
 *
 * Each subtask cleans its units by one {@link TableOrphanFiles.DirectoryRun} per table, so it reads
 * a table's metadata once (after listing its first directory of the table) and then only what is new;
 * listing and deleting, which grow with the data files, are what is split. The counts of removed
 * files and bytes are summed in accumulators. A failing unit (unreadable metadata, a failed delete)
 * fails the job; what other subtasks removed until then stays removed (they were orphans). The job
 * runs in BATCH runtime mode.
 */
public final class RemoveOrphanFilesJob {
    private final List<Table> tables;
    private final long olderThanMillis;
    private final boolean dryRun;
    private int parallelism = 1;

    /** What the job removed (dry: would remove), summed over its subtasks. */
    public record Result(long files, long bytes) {}

    private RemoveOrphanFilesJob(List<Table> tables, long olderThanMillis, boolean dryRun) {
        this.tables = List.copyOf(tables);
        this.olderThanMillis = olderThanMillis;
        this.dryRun = dryRun;
    }

    /**
     * A job cleaning {@code tables} of orphans last modified before {@code olderThanMillis}.
     *
     * @throws IllegalArgumentException if {@code olderThanMillis} is not in the past
     * @throws UnsupportedOperationException if a table is not stored in the Paimon format
     */
    public static RemoveOrphanFilesJob of(List<Table> tables, long olderThanMillis, boolean dryRun) {
        for (Table t : tables) {
            TableOrphanFiles.of(t).newDirectoryRun(olderThanMillis, true); // checks table and time now
        }
        return new RemoveOrphanFilesJob(tables, olderThanMillis, dryRun);
    }

    /** How many subtasks clean directories at once (capped by the number of directories). */
    public RemoveOrphanFilesJob parallelism(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("Cannot remove orphan files: parallelism must be at least 1 but is "
                    + parallelism);
        }
        this.parallelism = parallelism;
        return this;
    }

    /**
     * Lists the units (one listing of each table directory, here), builds the job on {@code env}
     * (switched to BATCH runtime mode), runs it and waits for it. No units: no job, nothing removed.
     */
    public Result run(StreamExecutionEnvironment env) throws Exception {
        List<Tuple2<Integer, String>> units = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            for (String dir : TableOrphanFiles.of(tables.get(i)).searchedDirectories()) {
                units.add(Tuple2.of(i, dir));
            }
        }
        if (units.isEmpty()) {
            return new Result(0, 0);
        }
        Configuration batch = new Configuration();
        batch.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        env.configure(batch);
        String name = tables.size() == 1 ? tables.get(0).fullName() : tables.size() + " tables";
        TypeInformation<Tuple2<Integer, String>> type = new TupleTypeInfo<>(
                BasicTypeInfo.INT_TYPE_INFO, BasicTypeInfo.STRING_TYPE_INFO);
        @SuppressWarnings("deprecation")
        DataStream<Tuple2<Integer, String>> source = env.fromCollection(units, type)
                .name("Directories: " + name).setParallelism(1);
        source.rebalance()
                .transform("Remove orphan files: " + name, BasicTypeInfo.VOID_TYPE_INFO,
                        ChainedOperatorFactory.head(new DirectoryCleanOperator(tables, olderThanMillis, dryRun)))
                .setParallelism(Math.min(parallelism, units.size()))
                .sinkTo(new DiscardingSink<>()).name("End: " + name);
        JobExecutionResult result = env.execute((dryRun ? "List" : "Remove") + " orphan files of " + name);
        Long files = result.getAccumulatorResult(DirectoryCleanOperator.FILES);
        Long bytes = result.getAccumulatorResult(DirectoryCleanOperator.BYTES);
        return new Result(files == null ? 0 : files, bytes == null ? 0 : bytes);
    }
}
