package dev.streamhouse.flink.sink;

import dev.streamhouse.flink.sink.testutils.Jobs;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;

import static dev.streamhouse.flink.sink.testutils.SinkTables.TYPE_INFO;
import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Builder validation, job-configuration checks and the topology, without running jobs. */
class PaimonSinkTest {
    @TempDir
    java.nio.file.Path tmp;

    private static DataStream<RowData> input(StreamExecutionEnvironment env, int parallelism) {
        return env.fromData(List.of(flinkRow(1, 1, "a")), TYPE_INFO).rebalance().map(r -> r).returns(TYPE_INFO)
                .setParallelism(parallelism);
    }

    private static StreamExecutionEnvironment checkpointed(Configuration extra) {
        Configuration c = Jobs.streamingConfig(2, 100L);
        c.addAll(extra);
        return StreamExecutionEnvironment.getExecutionEnvironment(c);
    }

    private static Transformation<?> committer(DataStreamSink<?> sink) {
        return sink.getTransformation().getInputs().get(0);
    }

    /** The writers: the committer's input, or further up past a compaction coordinator and its workers. */
    private static Transformation<?> writer(DataStreamSink<?> sink) {
        Transformation<?> t = committer(sink).getInputs().get(0);
        while (!t.getName().startsWith("Writer")) {
            t = t.getInputs().get(0);
        }
        return t;
    }

    @Test
    void refusesUnalignedCheckpoints() throws Exception {
        Configuration c = new Configuration();
        c.set(CheckpointingOptions.ENABLE_UNALIGNED, true);
        StreamExecutionEnvironment env = checkpointed(c);
        PaimonSink sink = PaimonSinkBuilder.forTable(SinkTables.append(tmp.resolve("t"))).build();
        assertThatThrownBy(() -> sink.addTo(input(env, 2)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("unaligned")
                .hasMessageContaining(CheckpointingOptions.ENABLE_UNALIGNED.key());
    }

    @Test
    void refusesAtLeastOnceCheckpoints() throws Exception {
        Configuration c = new Configuration();
        c.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.AT_LEAST_ONCE);
        StreamExecutionEnvironment env = checkpointed(c);
        PaimonSink sink = PaimonSinkBuilder.forTable(SinkTables.append(tmp.resolve("t"))).build();
        assertThatThrownBy(() -> sink.addTo(input(env, 2)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("AT_LEAST_ONCE")
                .hasMessageContaining("EXACTLY_ONCE");
    }

    @Test
    void refusesDisabledCheckpointsAfterTasksFinish() throws Exception {
        Configuration c = new Configuration();
        c.set(CheckpointingOptions.ENABLE_CHECKPOINTS_AFTER_TASKS_FINISH, false);
        StreamExecutionEnvironment env = checkpointed(c);
        PaimonSink sink = PaimonSinkBuilder.forTable(SinkTables.append(tmp.resolve("t"))).build();
        assertThatThrownBy(() -> sink.addTo(input(env, 2)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(CheckpointingOptions.ENABLE_CHECKPOINTS_AFTER_TASKS_FINISH.key());
    }

    @Test
    void batchJobsIgnoreCheckpointSettings() throws Exception {
        StreamExecutionEnvironment env = Jobs.batch(2);
        env.getCheckpointConfig().enableUnalignedCheckpoints();
        PaimonSinkBuilder.forTable(SinkTables.append(tmp.resolve("t"))).build().addTo(input(env, 2));
    }

    /** A stand-in for an overwrite. */
    static final class Replace implements CommitAction {
        @Override
        public void commit(TableCommit commit, long identifier, List<CommitMessage> messages) {}

        @Override
        public boolean replacesData() {
            return true;
        }
    }

    @Test
    void replacingCommitNeedsBatchMode() throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"));
        PaimonSink sink = PaimonSinkBuilder.forTable(table).commitAction(new Replace()).build();
        assertThatThrownBy(() -> sink.addTo(input(Jobs.streaming(2, 100L), 2)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("batch");
        sink.addTo(input(Jobs.batch(2), 2));
    }

    @Test
    void dynamicBucketsGoThroughBucketAssignersOfTheirOwnParallelism() throws Exception {
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("t"), "bucket", "-1");
        DataStreamSink<?> sink = PaimonSinkBuilder.forTable(table).parallelism(3).uidPrefix("p").build()
                .addTo(input(Jobs.batch(2), 2));
        Transformation<?> writer = writer(sink);
        assertThat(writer.getParallelism()).isEqualTo(3);
        Transformation<?> assigner = writer.getInputs().get(0);
        while (!assigner.getName().startsWith("Bucket assigner")) {
            assigner = assigner.getInputs().get(0);
        }
        assertThat(assigner.getParallelism()).as("as many assigners as writers by default").isEqualTo(3);
        assertThat(assigner.getUid()).isEqualTo("p-bucket-assigner");

        FileStoreTable twoAssigners = table.copy(java.util.Map.of("dynamic-bucket.assigner-parallelism", "2"));
        Transformation<?> w2 = writer(PaimonSinkBuilder.forTable(twoAssigners).parallelism(3).build()
                .addTo(input(Jobs.batch(2), 2)));
        Transformation<?> a2 = w2.getInputs().get(0);
        while (!a2.getName().startsWith("Bucket assigner")) {
            a2 = a2.getInputs().get(0);
        }
        assertThat(a2.getParallelism()).isEqualTo(2);
        assertThat(w2.getParallelism()).isEqualTo(3);
    }

    @Test
    void writerParallelismComesFromBuilderThenTableOptionThenInput() throws Exception {
        FileStoreTable plain = SinkTables.append(tmp.resolve("a"));
        FileStoreTable withOption = SinkTables.append(tmp.resolve("b"), "sink.parallelism", "3");
        StreamExecutionEnvironment env = Jobs.streaming(2, 100L);

        DataStreamSink<?> fromInput = PaimonSinkBuilder.forTable(plain).build().addTo(input(env, 2));
        assertThat(writer(fromInput).getParallelism()).isEqualTo(2);
        DataStreamSink<?> fromOption = PaimonSinkBuilder.forTable(withOption).build().addTo(input(env, 2));
        assertThat(writer(fromOption).getParallelism()).isEqualTo(3);
        DataStreamSink<?> fromBuilder = PaimonSinkBuilder.forTable(withOption).parallelism(4).build().addTo(input(env, 2));
        assertThat(writer(fromBuilder).getParallelism()).isEqualTo(4);
        assertThat(committer(fromBuilder).getParallelism()).isEqualTo(1);
        assertThat(committer(fromBuilder).getMaxParallelism()).isEqualTo(1);

        assertThatThrownBy(() -> PaimonSinkBuilder.forTable(plain).parallelism(0).build())
                .hasMessageContaining("at least 1");
        // A bad value never reaches the sink: the table is refused when it is created.
        assertThatThrownBy(() -> SinkTables.append(tmp.resolve("c"), "sink.parallelism", "x"))
                .hasMessageContaining("Invalid value 'x' for option 'sink.parallelism'");
    }

    @Test
    void bucketedTablesAreRoutedAndUnawareTablesKeepTheirInput() throws Exception {
        StreamExecutionEnvironment env = Jobs.streaming(2, 100L);
        DataStreamSink<?> fixed = PaimonSinkBuilder.forTable(SinkTables.primaryKey(tmp.resolve("f"), "bucket", "4"))
                .build().addTo(input(env, 2));
        DataStreamSink<?> dynamic = PaimonSinkBuilder.forTable(SinkTables.primaryKey(tmp.resolve("d")))
                .build().addTo(input(env, 2));
        DataStreamSink<?> bucketedAppend = PaimonSinkBuilder.forTable(SinkTables.append(tmp.resolve("b"), "bucket", "2",
                "bucket-key", "id")).build().addTo(input(env, 2));
        DataStreamSink<?> unaware = PaimonSinkBuilder.forTable(SinkTables.append(tmp.resolve("u"))).build()
                .addTo(input(env, 2));
        assertThat(writer(fixed).getInputs().get(0)).isInstanceOf(PartitionTransformation.class);
        assertThat(writer(dynamic).getInputs().get(0)).isInstanceOf(PartitionTransformation.class);
        assertThat(writer(bucketedAppend).getInputs().get(0)).isInstanceOf(PartitionTransformation.class);
        assertThat(writer(unaware).getInputs().get(0)).isNotInstanceOf(PartitionTransformation.class);
    }

    @Test
    void unsupportedBucketModesAreRefusedAtBuild() throws Exception {
        FileStoreTable unawareAppend = SinkTables.create(tmp.resolve("x"), false, true, "bucket", "-1");
        // An append table with bucket -1 is bucket-unaware: fine.
        PaimonSinkBuilder.forTable(unawareAppend).build();
        // Cross-partition upserts are refused when the table is created, before any sink sees them.
        assertThatThrownBy(() -> dev.streamhouse.storage.testutils.TestTables.create(
                dev.streamhouse.storage.fs.LocalFileIO.INSTANCE,
                new dev.streamhouse.storage.fs.Path(tmp.resolve("y").toString()),
                dev.streamhouse.storage.schema.Schema.newBuilder()
                        .column("id", dev.streamhouse.storage.types.DataTypes.INT().notNull())
                        .column("dt", dev.streamhouse.storage.types.DataTypes.STRING())
                        .partitionKeys("dt").primaryKey("id").build()))
                .hasMessageContaining("cross-partition upsert table is not supported yet");
        // Postpone buckets are refused when the table is created, before any sink sees them.
        assertThatThrownBy(() -> SinkTables.primaryKey(tmp.resolve("z"), "bucket", "-2"))
                .hasMessageContaining("option 'bucket' is not supported yet (set to '-2')");
    }

    @Test
    void uidsAndCommitUser() throws Exception {
        StreamExecutionEnvironment env = Jobs.streaming(2, 100L);
        PaimonSink sink = PaimonSinkBuilder.forTable(SinkTables.append(tmp.resolve("t"))).uidPrefix("orders-sink")
                .commitUser("job-42").build();
        DataStreamSink<?> end = sink.addTo(input(env, 2));
        assertThat(writer(end).getUid()).isEqualTo("orders-sink-writer");
        assertThat(committer(end).getUid()).isEqualTo("orders-sink-committer");
        // A streaming job compacts the table without buckets between writers and committer.
        Transformation<?> worker = committer(end).getInputs().get(0);
        assertThat(worker.getUid()).isEqualTo("orders-sink-compact-worker");
        assertThat(worker.getInputs().get(0).getUid()).isEqualTo("orders-sink-compact-coordinator");
        assertThat(sink.commitUser()).isEqualTo("job-42");
        assertThat(PaimonSinkBuilder.forTable(SinkTables.append(tmp.resolve("u"))).build().commitUser()).isNotBlank();
        assertThatThrownBy(() -> PaimonSinkBuilder.forTable(SinkTables.append(tmp.resolve("v"))).commitUser(" ").build())
                .hasMessageContaining("blank commit user");
    }
}
