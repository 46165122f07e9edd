package dev.streamhouse.flink.source;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.read.CorruptDataFileException;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An unbounded read that meets a damaged data file fails the job with the error naming the table, the
 * file, the partition and the bucket; it does not skip the file and run on without its rows.
 */
class DamagedFileStreamingITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .setConfiguration(noRestarts())
                    .build());

    @TempDir
    java.nio.file.Path tmp;

    private static Configuration noRestarts() {
        Configuration c = new Configuration();
        c.setString("restart-strategy.type", "none");
        return c;
    }

    private static List<java.nio.file.Path> dataFiles(java.nio.file.Path root) throws Exception {
        try (Stream<java.nio.file.Path> walk = Files.walk(root)) {
            return walk.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
        }
    }

    @Test
    void streamingJobFailsNamingTheTruncatedFileOfALaterSnapshot() throws Exception {
        java.nio.file.Path root = tmp.resolve("t");
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(root.toString()),
                TestTables.simpleSchema());
        TestTables.write(table, TestTables.rows(0, 10, 2));
        List<java.nio.file.Path> first = dataFiles(root);
        TestTables.write(table, TestTables.rows(10, 10, 2));
        java.nio.file.Path damaged = dataFiles(root).stream().filter(p -> !first.contains(p)).findFirst()
                .orElseThrow();
        byte[] bytes = Files.readAllBytes(damaged);
        Files.write(damaged, Arrays.copyOf(bytes, bytes.length / 2));

        PaimonSource source = PaimonSourceBuilder.forTable(table.copy(Map.of("continuous.discovery-interval", "100 ms",
                "scan.mode", "from-snapshot", "scan.snapshot-id", "1"))).unbounded().build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "paimon").sinkTo(new DiscardingSink<>());
        JobClient job = env.executeAsync("stream over a damaged file");

        String partition = damaged.getParent().getParent().getFileName().toString();
        String bucket = damaged.getParent().getFileName().toString().replace("bucket-", "bucket ");
        assertThatThrownBy(() -> job.getJobExecutionResult().get(90, TimeUnit.SECONDS))
                .as("the job fails instead of skipping the file")
                .satisfies(e -> {
                    CorruptDataFileException corrupt = null;
                    for (Throwable t = e; t != null && corrupt == null; t = t.getCause()) {
                        corrupt = t instanceof CorruptDataFileException c ? c : null;
                    }
                    assertThat(corrupt).as("CorruptDataFileException in %s", e).isNotNull();
                    assertThat(corrupt.getMessage()).contains(damaged.getFileName().toString())
                            .contains("of table " + table.fullName())
                            .contains("(partition " + partition + ", " + bucket + ")")
                            .contains("(truncated)");
                });
    }
}
