package dev.streamhouse.flink.sink;

import dev.streamhouse.flink.sink.testutils.Jobs;
import dev.streamhouse.flink.common.metrics.MetricsForTests;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;

import static dev.streamhouse.flink.sink.testutils.SinkTables.TYPE_INFO;
import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static dev.streamhouse.flink.sink.testutils.SinkTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The committer's {@code commit} metrics, read through a metric reporter, against the table's real
 * snapshots: after a streaming job with checkpoints, the last commit's figures are those of the
 * snapshots it made.
 */
class CommitMetricsITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = Jobs.miniCluster();

    @TempDir
    java.nio.file.Path tmp;

    @Test
    void lastCommitFiguresAreThoseOfItsSnapshots() throws Exception {
        MetricsForTests.clear();
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("metered"), "bucket", "2",
                "num-sorted-run.compaction-trigger", "2");
        StreamExecutionEnvironment env = Jobs.streaming(2, 100L);
        DataStream<RowData> input = env.fromSource(new DataGeneratorSource<>(
                        i -> flinkRow((int) (i % 100), i, "d"), 2000, RateLimiterStrategy.perSecond(2000), TYPE_INFO),
                WatermarkStrategy.noWatermarks(), "datagen").setParallelism(1);
        PaimonSinkBuilder.forTable(table).build().addTo(input);
        env.execute();

        String prefix = ".paimon.table." + table.fullName().substring(table.fullName().indexOf('.') + 1) + ".commit.";
        Map<String, Object> commit = MetricsForTests.values(prefix);
        List<Snapshot> snapshots = snapshots(table);
        Snapshot latest = snapshots.get(snapshots.size() - 1);
        List<Snapshot> lastCommit = snapshots.stream()
                .filter(s -> s.commitIdentifier() == latest.commitIdentifier()).toList();
        assertThat(metric(commit, "lastCommittedSnapshotId")).isEqualTo(latest.id());
        assertThat(metric(commit, "lastGeneratedSnapshots")).isEqualTo((long) lastCommit.size());
        long appendedRows = lastCommit.stream().filter(s -> s.commitKind() == CommitKind.APPEND)
                .mapToLong(Snapshot::deltaRecordCount).sum();
        assertThat(metric(commit, "lastDeltaRecordsAppended")).isEqualTo(appendedRows);
        assertThat(metric(commit, "lastCommitAttempts")).isEqualTo((long) lastCommit.size());
        assertThat(metric(commit, "lastBucketsWritten")).isBetween(1L, 2L);
        long commits = snapshots.stream().map(Snapshot::commitIdentifier).distinct().count();
        assertThat(metric(commit, "commitDuration")).as("one duration per commit").isEqualTo(commits);
        assertThat(metric(commit, "lastCommitFreshness")).isGreaterThanOrEqualTo(metric(commit, "lastCommitDuration"));
        // Compaction ran (trigger 2): some commit rewrote files, and its bytes were counted.
        assertThat(snapshots.stream().anyMatch(s -> s.commitKind() == CommitKind.COMPACT)).isTrue();
    }

    private static long metric(Map<String, Object> metrics, String name) {
        List<Object> values = metrics.entrySet().stream().filter(e -> e.getKey().endsWith(".commit." + name))
                .map(Map.Entry::getValue).toList();
        assertThat(values).as(name + " in " + metrics.keySet()).hasSize(1);
        return ((Number) values.get(0)).longValue();
    }
}
