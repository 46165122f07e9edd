package dev.streamhouse.flink.sink.orphan;

import dev.streamhouse.storage.maintenance.orphan.TableOrphanFiles;
import dev.streamhouse.storage.table.Table;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The worker of the {@link RemoveOrphanFilesJob}: cleans each (table index, directory) it receives
 * with the subtask's {@link TableOrphanFiles.DirectoryRun} of that table (created on the table's
 * first unit), and adds what it removed to the accumulators {@link #FILES} and {@link #BYTES}. Emits
 * nothing; an error fails the job.
 */
final class DirectoryCleanOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<Tuple2<Integer, String>, Void> {
    private static final long serialVersionUID = 1L;

    static final String FILES = "streamhouse-orphan-files";
    static final String BYTES = "streamhouse-orphan-bytes";

    private final List<Table> tables;
    private final long olderThanMillis;
    private final boolean dryRun;

    private transient Map<Integer, TableOrphanFiles.DirectoryRun> runs;
    private transient LongCounter files;
    private transient LongCounter bytes;

    DirectoryCleanOperator(List<Table> tables, long olderThanMillis, boolean dryRun) {
        this.tables = List.copyOf(tables);
        this.olderThanMillis = olderThanMillis;
        this.dryRun = dryRun;
    }

    @Override
    public void open() throws Exception {
        super.open();
        runs = new HashMap<>();
        files = new LongCounter();
        bytes = new LongCounter();
        getRuntimeContext().addAccumulator(FILES, files);
        getRuntimeContext().addAccumulator(BYTES, bytes);
    }

    @Override
    public void processElement(StreamRecord<Tuple2<Integer, String>> element) {
        int index = element.getValue().f0;
        TableOrphanFiles.DirectoryRun run = runs.computeIfAbsent(index,
                i -> TableOrphanFiles.of(tables.get(i)).newDirectoryRun(olderThanMillis, dryRun));
        TableOrphanFiles.Result result = run.clean(element.getValue().f1);
        files.add(result.deletedFileCount());
        bytes.add(result.deletedBytes());
    }
}
