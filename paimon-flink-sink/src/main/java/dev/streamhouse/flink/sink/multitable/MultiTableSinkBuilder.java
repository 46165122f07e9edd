package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.flink.sink.ChainedOperatorFactory;
import dev.streamhouse.flink.sink.SinkJobChecks;
import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.flink.sink.committable.CommittableTypeInfo;
import org.apache.flink.api.common.typeinfo.BasicTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Builds the sink that writes {@link TableRow}s into many tables of one catalog, committing every
 * table's files of each checkpoint exactly once: rows of dynamic-bucket tables through one
 * {@link MultiTableBucketAssignerOperator} that gives them their bucket, then all rows routed by
 * {@link TableRowPartitioner} (table, partition, bucket) to the {@link MultiTableWriterOperator}s,
 * their committables to one {@link MultiTableCommitterOperator}.
 * The tables must exist before their first row is written, as the {@link TableRowEncoder} that makes
 * the rows requires.
 *
 * <pre>{@code
 * MultiTableSinkBuilder.forCatalog(Map.of("warehouse", "file:///data/wh")).uidPrefix("sync").build(rows);
 * }</pre>
 */
public final class MultiTableSinkBuilder {
    private final Map<String, String> catalogOptions;
    private Integer parallelism;
    private String commitUser = UUID.randomUUID().toString();
    private String uidPrefix;
    private String name = "tables";

    private MultiTableSinkBuilder(Map<String, String> catalogOptions) {
        this.catalogOptions = Map.copyOf(catalogOptions);
    }

    /** A sink writing tables of the storage catalog with these options (its {@code warehouse}, ...). */
    public static MultiTableSinkBuilder forCatalog(Map<String, String> catalogOptions) {
        return new MultiTableSinkBuilder(catalogOptions);
    }

    /** The writers' parallelism; by default the input's. */
    public MultiTableSinkBuilder parallelism(int parallelism) {
        this.parallelism = parallelism;
        return this;
    }

    /**
     * The commit user of a fresh start; a restored job keeps the one in its state. Random by default.
     */
    public MultiTableSinkBuilder commitUser(String commitUser) {
        this.commitUser = Objects.requireNonNull(commitUser, "commitUser");
        return this;
    }

    /** Operator uids {@code <prefix>-writer}, {@code -committer}, {@code -end}, for savepoint compatibility. */
    public MultiTableSinkBuilder uidPrefix(String uidPrefix) {
        this.uidPrefix = uidPrefix;
        return this;
    }

    /** What the operators' names say the sink writes, e.g. a database name. */
    public MultiTableSinkBuilder name(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return this;
    }

    public DataStreamSink<Void> build(DataStream<TableRow> rows) {
        StreamExecutionEnvironment env = rows.getExecutionEnvironment();
        SinkJobChecks.check("tables " + name, false, env.getConfiguration(), env.getCheckpointConfig());
        int writers = parallelism != null ? parallelism : rows.getParallelism();
        // Rows of dynamic-bucket tables get their bucket from one assigner first; the others go straight on.
        SingleOutputStreamOperator<TableRow> assigned = rows.filter(TableRow::dynamicBucket)
                .name("Dynamic-bucket rows: " + name).setParallelism(rows.getParallelism())
                .transform("Bucket assigner: " + name, rows.getType(),
                        ChainedOperatorFactory.head(new MultiTableBucketAssignerOperator(catalogOptions, commitUser)))
                .setParallelism(1)
                .setMaxParallelism(1);
        DataStream<TableRow> direct = rows.filter(r -> !r.dynamicBucket())
                .name("Fixed-bucket rows: " + name).setParallelism(rows.getParallelism());
        SingleOutputStreamOperator<Committable> written = direct.union(assigned)
                .partitionCustom(new TableRowPartitioner(), r -> r)
                .transform("Writer: " + name, CommittableTypeInfo.INSTANCE,
                        ChainedOperatorFactory.always(new MultiTableWriterOperator(catalogOptions, commitUser)))
                .setParallelism(writers);
        SingleOutputStreamOperator<Void> committed = written
                .transform("Committer: " + name, BasicTypeInfo.VOID_TYPE_INFO,
                        ChainedOperatorFactory.always(new MultiTableCommitterOperator(catalogOptions, commitUser)))
                .setParallelism(1)
                .setMaxParallelism(1);
        DataStreamSink<Void> end = committed.sinkTo(new DiscardingSink<>()).name("End: " + name).setParallelism(1);
        if (uidPrefix != null) {
            assigned.uid(uidPrefix + "-bucket-assigner");
            written.uid(uidPrefix + "-writer");
            committed.uid(uidPrefix + "-committer");
            end.uid(uidPrefix + "-end");
        }
        return end;
    }
}
