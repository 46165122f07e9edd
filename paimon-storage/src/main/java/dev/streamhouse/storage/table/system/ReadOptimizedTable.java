package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.ReadBuilder;

import java.util.Map;

/**
 * {@code t$ro}, the read-optimized view: the table's columns, keys and partitions, but for a
 * primary-key table only the files on the top LSM level ({@code num-levels} - 1, by default level 5),
 * which full compaction writes and which need no merging with younger files. Reads are fast and may
 * lag behind the table until the next full compaction ({@code CALL sys.compact}); rows written since
 * are not seen. As in Apache Paimon 1.3.1 (verified with its jar): an append table's view is the
 * table itself (batch and streaming); a primary-key table's view reads in batch only (a streaming
 * read is refused with an {@link UnsupportedOperationException}), and an {@code incremental-between}
 * read finds only changes on the top level, i.e. none.
 */
public final class ReadOptimizedTable extends DataViewTable {
    private static final long serialVersionUID = 1L;

    public static final String NAME = "ro";

    public ReadOptimizedTable(FileStoreTable data) {
        super(data, NAME);
    }

    @Override
    public TableSchema schema() {
        return data.schema();
    }

    @Override
    public ReadBuilder newReadBuilder() {
        if (!data.schema().hasPrimaryKey()) {
            return data.newReadBuilder();
        }
        int topLevel = MergeTreeOptions.numLevels(data.schema().tableOptions()) - 1;
        return data.newReadBuilder().onlyLevel(topLevel);
    }

    /** {@inheritDoc} The options are checked as dynamic options of the data table. */
    @Override
    public ReadOptimizedTable copy(Map<String, String> dynamicOptions) {
        return new ReadOptimizedTable(data.copy(dynamicOptions));
    }
}
