package dev.streamhouse.flink.sink;

import dev.streamhouse.flink.common.FlinkTypes;
import dev.streamhouse.flink.sink.PaimonSink.Routing;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.Table;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.RowRowConverter;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * The one way to write a DataStream into a table, exactly once (commits on checkpoint completion; in
 * BATCH mode one commit at the end); Flink SQL's table sink builds its {@link PaimonSink} here too:
 *
 * <pre>{@code
 * PaimonSinkBuilder.forTable(table).parallelism(4).forRowData(stream);
 * PaimonSinkBuilder.forTable(table).forRow(rows, DataTypes.ROW(...));   // external Row objects
 * PaimonSinkBuilder.forTable(table).overwrite(Map.of("dt", "2026-11-29")).forRowData(stream);   // batch
 * }</pre>
 * Rows carry their {@code RowKind}: primary-key tables apply -U/+U/-D as updates and deletes.
 * {@link #build()} checks the settings; {@link PaimonSink#addTo} checks the job's configuration.
 */
public final class PaimonSinkBuilder {
    final Table table;
    Integer parallelism;
    String commitUser;
    CommitAction commitAction = CommitAction.append();
    String uidPrefix;

    private PaimonSinkBuilder(Table table) {
        this.table = Objects.requireNonNull(table, "table");
    }

    public static PaimonSinkBuilder forTable(Table table) {
        return new PaimonSinkBuilder(table);
    }

    /** Writer parallelism; null (default) means table option {@code sink.parallelism}, else the input's. */
    public PaimonSinkBuilder parallelism(Integer parallelism) {
        this.parallelism = parallelism;
        return this;
    }

    /**
     * The commit user of this job's snapshots; default a random UUID per built sink. Keep it stable
     * for the life of one streaming job (a restored job uses the one in its state anyway; a job
     * started from a savepoint of this job should pass the same one); never share it between two
     * jobs writing the same table.
     */
    public PaimonSinkBuilder commitUser(String commitUser) {
        this.commitUser = commitUser;
        return this;
    }

    /** INSERT OVERWRITE of the partitions matching {@code staticPartition} ({} = the whole table); batch only. */
    public PaimonSinkBuilder overwrite(Map<String, String> staticPartition) {
        return commitAction(OverwriteCommit.staticPartition(staticPartition));
    }

    /** INSERT OVERWRITE of exactly the partitions the job writes; batch only. */
    public PaimonSinkBuilder overwriteDynamicPartitions() {
        return commitAction(OverwriteCommit.dynamicPartitions());
    }

    /** How identifiers are committed; default {@link CommitAction#append()}. */
    public PaimonSinkBuilder commitAction(CommitAction commitAction) {
        this.commitAction = Objects.requireNonNull(commitAction, "commitAction");
        return this;
    }

    /** Stable operator uids {@code <prefix>-writer}, {@code -committer}, {@code -end}, for savepoints. */
    public PaimonSinkBuilder uidPrefix(String uidPrefix) {
        this.uidPrefix = uidPrefix;
        return this;
    }

    /** Writes rows of the table's row type (internal Flink data structures). */
    public DataStreamSink<Void> forRowData(DataStream<RowData> input) {
        return build().addTo(input);
    }

    /** Writes external {@link Row}s described by {@code rowType} (a ROW data type matching the table). */
    public DataStreamSink<Void> forRow(DataStream<Row> input, DataType rowType) {
        org.apache.flink.table.types.logical.RowType tableType = FlinkTypes.toFlinkRowType(table.rowType());
        if (rowType.getLogicalType().getChildren().size() != tableType.getFieldCount()) {
            throw new IllegalArgumentException("Cannot write rows of type " + rowType + " to table " + table.fullName()
                    + ": it has " + tableType.getFieldCount() + " columns " + tableType.getFieldNames());
        }
        // Same parallelism as the input, so the conversion chains to it and keeps the order of changes.
        DataStream<RowData> internal = input.map(new ToRowData(rowType))
                .returns(InternalTypeInfo.of(TypeConversions.fromDataToLogicalType(rowType)))
                .setParallelism(input.getParallelism())
                .name("to RowData");
        return forRowData(internal);
    }

    /**
     * The sink of these settings.
     *
     * @throws IllegalArgumentException for a parallelism below 1, a blank commit user or uid prefix
     * @throws UnsupportedOperationException for a bucket mode the sink cannot route
     */
    public PaimonSink build() {
        if (parallelism == null) {
            parallelism = table.schema().tableOptions().get(FlinkSinkOptions.SINK_PARALLELISM);
        }
        if (parallelism != null && parallelism < 1) {
            throw new IllegalArgumentException("Cannot write table " + table.fullName() + " with sink parallelism "
                    + parallelism + ": it must be at least 1 (option '" + FlinkSinkOptions.SINK_PARALLELISM.key()
                    + "')");
        }
        if (commitUser == null) {
            commitUser = UUID.randomUUID().toString();
        } else if (commitUser.isBlank()) {
            throw new IllegalArgumentException("Cannot write table " + table.fullName() + ": blank commit user");
        }
        if (uidPrefix != null && uidPrefix.isBlank()) {
            throw new IllegalArgumentException("Cannot write table " + table.fullName() + ": blank uid prefix");
        }
        return new PaimonSink(this, routingOf(table));
    }

    private static Routing routingOf(Table table) {
        TableSchema schema = table.schema();
        int buckets = schema.numBuckets();
        if (buckets > 0) {
            return Routing.FIXED_BUCKET;
        }
        if (buckets == -1 && !schema.hasPrimaryKey()) {
            return Routing.UNAWARE;
        }
        if (buckets == -1) {
            if (!schema.primaryKeys().containsAll(schema.partitionKeys())) {
                throw new UnsupportedOperationException("Cannot write table " + table.fullName()
                        + ": dynamic buckets with a primary key " + schema.primaryKeys()
                        + " that does not contain all partition keys " + schema.partitionKeys()
                        + " (cross-partition upsert) are not supported yet; set a fixed 'bucket' or add the"
                        + " partition keys to the primary key");
            }
            return Routing.DYNAMIC_BUCKET;
        }
        throw new UnsupportedOperationException("Cannot write table " + table.fullName() + ": 'bucket' = "
                + buckets + " is not supported; use -1 or a positive bucket count");
    }

    /** Converts external rows to internal ones. */
    private static final class ToRowData extends RichMapFunction<Row, RowData> {
        private static final long serialVersionUID = 1L;
        private final DataType rowType;
        private transient RowRowConverter converter;

        ToRowData(DataType rowType) {
            this.rowType = rowType;
        }

        @Override
        public void open(OpenContext openContext) {
            converter = RowRowConverter.create(rowType);
            converter.open(getRuntimeContext().getUserCodeClassLoader());
        }

        @Override
        public RowData map(Row row) {
            return converter.toInternal(row);
        }
    }
}
