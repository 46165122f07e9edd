package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.storage.options.PartitionOptions;
import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.flink.sink.OverwriteCommit;
import dev.streamhouse.flink.sink.PaimonSinkBuilder;
import dev.streamhouse.storage.table.MergeBehavior;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.BatchTableCommit;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ProviderContext;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.RowLevelModificationScanContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.connector.sink.abilities.SupportsRowLevelDelete;
import org.apache.flink.table.connector.sink.abilities.SupportsRowLevelUpdate;
import org.apache.flink.table.connector.sink.abilities.SupportsTruncate;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a data table from Flink SQL: {@code INSERT INTO}, {@code INSERT OVERWRITE} (static partition,
 * or dynamic partitions by default as in Paimon's {@code dynamic-partition-overwrite}),
 * {@code TRUNCATE TABLE}, and row-level {@code UPDATE}/{@code DELETE} for primary-key tables.
 */
public final class PaimonTableSink implements DynamicTableSink, SupportsOverwrite, SupportsPartitioning,
        SupportsTruncate, SupportsRowLevelDelete, SupportsRowLevelUpdate {
    /** Paimon's option: INSERT OVERWRITE of a partitioned table replaces only the partitions written. */

    private final Table table;
    private boolean overwrite;
    private Map<String, String> staticPartition = new LinkedHashMap<>();
    private RowKind forcedKind;

    public PaimonTableSink(Table table) {
        this.table = table;
    }

    private PaimonTableSink(PaimonTableSink other) {
        this.table = other.table;
        this.overwrite = other.overwrite;
        this.staticPartition = new LinkedHashMap<>(other.staticPartition);
        this.forcedKind = other.forcedKind;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requested) {
        if (!table.schema().hasPrimaryKey()) {
            return ChangelogMode.insertOnly();
        }
        if (MergeBehavior.of(table.schema()).keepsUpdateBefore()) {
            // The input is the changelog streaming readers get (input producer), or the merge engine
            // retracts old values (aggregation): keep every kind, -U included.
            return requested;
        }
        // Primary-key tables apply upserts: -U is redundant with the following +U.
        ChangelogMode.Builder b = ChangelogMode.newBuilder();
        for (RowKind kind : requested.getContainedKinds()) {
            if (kind != RowKind.UPDATE_BEFORE) {
                b.addContainedKind(kind);
            }
        }
        return b.build();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        CommitAction action = commitAction();
        RowKind kind = forcedKind;
        return new DataStreamSinkProvider() {
            @Override
            public DataStreamSink<?> consumeDataStream(ProviderContext providerContext, DataStream<RowData> dataStream) {
                DataStream<RowData> input = dataStream;
                if (kind != null) {
                    input = dataStream.map(new ForceRowKind(kind)).returns(dataStream.getType())
                            .name("row-kind " + kind.shortString());
                }
                return PaimonSinkBuilder.forTable(table).commitAction(action).forRowData(input);
            }
        };
    }

    private CommitAction commitAction() {
        if (!overwrite) {
            return CommitAction.append();
        }
        boolean dynamic = table.schema().tableOptions().get(PartitionOptions.DYNAMIC_PARTITION_OVERWRITE);
        if (staticPartition.isEmpty() && dynamic && !table.partitionKeys().isEmpty()) {
            return OverwriteCommit.dynamicPartitions();
        }
        return OverwriteCommit.staticPartition(staticPartition);
    }

    @Override
    public void applyOverwrite(boolean overwrite) {
        this.overwrite = overwrite;
    }

    @Override
    public void applyStaticPartition(Map<String, String> partition) {
        this.staticPartition = new LinkedHashMap<>(partition);
    }

    @Override
    public void executeTruncation() {
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.truncateTable();
        }
    }

    @Override
    public RowLevelDeleteInfo applyRowLevelDelete(RowLevelModificationScanContext context) {
        requirePrimaryKey("DELETE");
        MergeBehavior.of(table.schema()).refusesBatchDelete().ifPresent(reason -> {
            throw new ValidationException("Cannot DELETE rows of table " + table.fullName() + ": " + reason);
        });
        this.forcedKind = RowKind.DELETE;
        return new RowLevelDeleteInfo() {
            @Override
            public RowLevelDeleteMode getRowLevelDeleteMode() {
                return RowLevelDeleteMode.DELETED_ROWS;
            }
        };
    }

    @Override
    public RowLevelUpdateInfo applyRowLevelUpdate(List<Column> updatedColumns, RowLevelModificationScanContext context) {
        requirePrimaryKey("UPDATE");
        MergeBehavior.of(table.schema()).refusesBatchUpdate().ifPresent(reason -> {
            throw new ValidationException("Cannot UPDATE table " + table.fullName() + ": " + reason);
        });
        for (Column c : updatedColumns) {
            if (table.primaryKeys().contains(c.getName())) {
                throw new ValidationException("Cannot UPDATE table " + table.fullName() + ": column '" + c.getName()
                        + "' is part of the primary key; delete the row and insert a new one instead");
            }
        }
        this.forcedKind = RowKind.UPDATE_AFTER;
        return new RowLevelUpdateInfo() {
            @Override
            public RowLevelUpdateMode getRowLevelUpdateMode() {
                return RowLevelUpdateMode.UPDATED_ROWS;
            }
        };
    }

    private void requirePrimaryKey(String statement) {
        if (!table.schema().hasPrimaryKey()) {
            throw new ValidationException("Cannot " + statement + " rows of table " + table.fullName()
                    + ": row-level " + statement + " needs a primary-key table");
        }
    }

    /** Marks every row with the kind a row-level DELETE or UPDATE means. */
    private static final class ForceRowKind implements MapFunction<RowData, RowData> {
        private static final long serialVersionUID = 1L;
        private final RowKind kind;

        ForceRowKind(RowKind kind) {
            this.kind = kind;
        }

        @Override
        public RowData map(RowData row) {
            row.setRowKind(kind);
            return row;
        }
    }

    @Override
    public DynamicTableSink copy() {
        return new PaimonTableSink(this);
    }

    @Override
    public String asSummaryString() {
        return "PaimonTableSink(" + table.fullName() + ")";
    }
}
