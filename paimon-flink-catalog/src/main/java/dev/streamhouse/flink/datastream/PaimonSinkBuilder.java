package dev.streamhouse.flink.datastream;

import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.flink.sink.OverwriteCommit;
import dev.streamhouse.flink.sink.PaimonSink;
import dev.streamhouse.flink.source.data.FlinkTypeMapping;
import dev.streamhouse.storage.table.Table;

import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.RowRowConverter;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.types.Row;

import java.util.Map;

/**
 * Writes a DataStream into a table, exactly once (commits on checkpoint completion; in BATCH mode
 * one commit at the end):
 *
 * <pre>{@code
 * PaimonSinkBuilder.forTable(table).parallelism(4).forRowData(stream);
 * PaimonSinkBuilder.forTable(table).forRow(rows, DataTypes.ROW(...));   // external Row objects
 * PaimonSinkBuilder.forTable(table).overwrite(Map.of("dt", "2026-11-29")).forRowData(stream);   // batch
 * }</pre>
 * Rows carry their {@code RowKind}: primary-key tables apply -U/+U/-D as updates and deletes.
 */
public final class PaimonSinkBuilder {
    private final Table table;
    private Integer parallelism;
    private String commitUser;
    private CommitAction commitAction = CommitAction.append();

    private PaimonSinkBuilder(Table table) {
        this.table = table;
    }

    public static PaimonSinkBuilder forTable(Table table) {
        return new PaimonSinkBuilder(table);
    }

    /** Writer parallelism; default: table option {@code sink.parallelism}, else the input's. */
    public PaimonSinkBuilder parallelism(int parallelism) {
        this.parallelism = parallelism;
        return this;
    }

    /** A commit user that stays the same across restarts from savepoints of this job. */
    public PaimonSinkBuilder commitUser(String commitUser) {
        this.commitUser = commitUser;
        return this;
    }

    /** INSERT OVERWRITE of the partitions matching {@code staticPartition} ({} = the whole table). */
    public PaimonSinkBuilder overwrite(Map<String, String> staticPartition) {
        this.commitAction = OverwriteCommit.staticPartition(staticPartition);
        return this;
    }

    /** INSERT OVERWRITE of exactly the partitions the job writes. */
    public PaimonSinkBuilder overwriteDynamicPartitions() {
        this.commitAction = OverwriteCommit.dynamicPartitions();
        return this;
    }

    /** Writes rows of the table's row type (internal Flink data structures). */
    public DataStreamSink<Void> forRowData(DataStream<RowData> input) {
        PaimonSink.Builder b = PaimonSink.builder(table).commitAction(commitAction);
        if (parallelism != null) {
            b.parallelism(parallelism);
        }
        if (commitUser != null) {
            b.commitUser(commitUser);
        }
        return b.build().addTo(input);
    }

    /** Writes external {@link Row}s described by {@code rowType} (a ROW data type matching the table). */
    public DataStreamSink<Void> forRow(DataStream<Row> input, DataType rowType) {
        org.apache.flink.table.types.logical.RowType tableType = FlinkTypeMapping.toFlinkRowType(table.rowType());
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

    /** Converts external rows to internal ones. */
    private static final class ToRowData extends RichMapFunction<Row, RowData> {
        private static final long serialVersionUID = 1L;
        private final DataType rowType;
        private transient RowRowConverter converter;

        ToRowData(DataType rowType) {
            this.rowType = rowType;
        }

        @Override
        public void open(Configuration parameters) {
            converter = RowRowConverter.create(rowType);
            converter.open(getRuntimeContext().getUserCodeClassLoader());
        }

        @Override
        public RowData map(Row row) {
            return converter.toInternal(row);
        }
    }
}
