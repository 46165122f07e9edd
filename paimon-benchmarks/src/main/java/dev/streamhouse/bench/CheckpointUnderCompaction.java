package dev.streamhouse.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;

/**
 * Workload {@code checkpoint-under-compaction}: a sustained upsert stream of {@code --rate} rows per
 * second over {@code --keys} keys for {@code --compaction-seconds} into a 4-bucket primary-key table,
 * checkpointing every {@code --checkpoint-ms}, so that every bucket keeps compacting (a level-0 file per
 * bucket per checkpoint against the compaction trigger of 5). Do checkpoints wait for compaction?
 *
 * <p>Reports the checkpoints' end-to-end durations (p50, p99, max, how many took longer than a second,
 * how many failed) from the MiniCluster's REST API ({@link CheckpointTimes}), the rows per second the
 * job achieved (below {@code --rate} when the writers back-pressure the source), and per job vertex
 * where a checkpoint's time went: the barrier's start delay at the vertex (what the operators upstream
 * did before passing it on, e.g. the writer's flush before the committer gets it), alignment,
 * synchronous and asynchronous snapshot. Then the table's files per level.
 */
final class CheckpointUnderCompaction {
    private final FlinkWorkloads flink;
    private final BenchParams params;

    CheckpointUnderCompaction(FlinkWorkloads flink, BenchParams params) {
        this.flink = flink;
        this.params = params;
    }

    void run(Report report) throws Exception {
        String table = "under_compaction";
        long rows = params.ratePerSecond * params.compactionSeconds;
        int restPort = freePort();
        SqlSession stream = flink.openStreaming(report, params.checkpointMillis,
                Map.of("rest.bind-port", Integer.toString(restPort), "rest.address", "127.0.0.1"));
        stream.execute("DROP TABLE IF EXISTS bench.db." + table);
        stream.execute(FlinkWorkloads.pkTableDdl(table));
        stream.execute(FlinkWorkloads.generatorDdl("gen", rows, params.keys, params.ratePerSecond));
        report.info("%d rows of %d keys at %d rows/s for %d s, checkpoint every %d ms, 4 buckets, parallelism 2",
                rows, params.keys, params.ratePerSecond, params.compactionSeconds, params.checkpointMillis);

        CheckpointTimes checkpoints = new CheckpointTimes(restPort);
        long start = System.nanoTime();
        try {
            stream.executeAndWait("INSERT INTO bench.db." + table + " SELECT * FROM gen");
        } finally {
            checkpoints.close();
        }
        double elapsed = FlinkWorkloads.seconds(start);
        long[] millis = checkpoints.endToEndMillis();
        report.info("streamed %d rows in %.1f s; %d checkpoints seen (last REST error: %s)",
                rows, elapsed, millis.length, checkpoints.lastError());
        if (millis.length == 0) {
            throw new IllegalStateException("Cannot measure checkpoints: the REST API at port " + restPort
                    + " reported none (" + checkpoints.lastError() + ")");
        }
        report.result("rows-per-s", rows / elapsed, "rows/s");
        report.result("checkpoints", millis.length, "count");
        report.result("checkpoints-failed", checkpoints.failed(), "count");
        report.result("checkpoint-p50-ms", CheckpointTimes.percentile(millis, 0.5), "ms");
        report.result("checkpoint-p99-ms", CheckpointTimes.percentile(millis, 0.99), "ms");
        report.result("checkpoint-max-ms", millis[millis.length - 1], "ms");
        long over = java.util.Arrays.stream(millis).filter(m -> m > 1_000).count();
        report.result("checkpoints-over-1s", over, "count");
        checkpoints.phaseSummary().forEach((vertex, phases) ->
                report.info("vertex %s, slowest subtask p50 / p99 / max ms: %s", vertex, phases));

        flink.filesPerLevel(SqlSession.batch(flink.warehouseUri()), report, table, "after-stream");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
