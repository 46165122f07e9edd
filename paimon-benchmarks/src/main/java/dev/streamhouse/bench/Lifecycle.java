package dev.streamhouse.bench;

import org.apache.flink.table.api.TableResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;

/**
 * Workload {@code lifecycle}: a streaming upsert job at {@code --rate} rows/s for {@code --seconds},
 * a snapshot per {@code --checkpoint-ms} checkpoint, into a primary-key table that keeps few snapshots
 * ({@link #RETENTION}): does expiration keep the table's files on disk bounded while it runs?
 *
 * <p>While the job runs, the table directory is sampled every {@link #SAMPLE_MILLIS} ms: snapshot
 * files, manifest files, data files (under the bucket directories) and bytes. Reported: the commits
 * made (the latest snapshot id), and for each count its largest sample and its value once the job
 * finished. Without expiration every count grows with the commits; with it, snapshot files stay at
 * about {@code snapshot.num-retained.max} and the others at what those snapshots need.
 */
final class Lifecycle {
    private static final String TABLE = "lifecycle";
    /** Retention that expires within the run: at most 10 snapshots, those older than 5 s beyond 5. */
    static final String RETENTION = "'snapshot.num-retained.min' = '5', 'snapshot.num-retained.max' = '10', "
            + "'snapshot.time-retained' = '5 s', ";
    private static final long SAMPLE_MILLIS = 1000;

    private final FlinkWorkloads workloads;
    private final BenchParams params;

    Lifecycle(FlinkWorkloads workloads, BenchParams params) {
        this.workloads = workloads;
        this.params = params;
    }

    void run(Report report) throws Exception {
        long rows = params.ratePerSecond * params.streamSeconds;
        SqlSession sql = workloads.openStreaming(report);
        sql.execute("DROP TABLE IF EXISTS bench.db." + TABLE);
        sql.execute(FlinkWorkloads.pkTableDdl(TABLE, RETENTION));
        sql.execute(FlinkWorkloads.generatorDdl("gen", rows, params.keys, params.ratePerSecond));
        Path table = tableDir();

        Counts max = new Counts(0, 0, 0, 0);
        TableResult job = sql.execute("INSERT INTO bench.db." + TABLE + " SELECT * FROM gen");
        long start = System.nanoTime();
        // The job's MiniCluster goes away with the job, so wait for its result rather than polling its status.
        CompletableFuture<Void> finished = CompletableFuture.runAsync(() -> {
            try {
                job.await();
            } catch (Exception e) {
                throw new CompletionException(e);
            }
        });
        while (!finished.isDone()) {
            max = max.max(Counts.of(table));
            Thread.sleep(SAMPLE_MILLIS);
        }
        finished.get();
        report.info("streamed %d rows in %.1f s", rows, (System.nanoTime() - start) / 1e9);
        Counts end = Counts.of(table);
        long commits = latestSnapshotId(table);
        report.info("after %d commits: %s at the end, at most %s while running", commits, end, max);
        report.result("commits", commits, "snapshots");
        report.result("snapshot-files-max", max.snapshots, "files");
        report.result("snapshot-files-end", end.snapshots, "files");
        report.result("manifest-files-max", max.manifests, "files");
        report.result("data-files-max", max.dataFiles, "files");
        report.result("data-files-end", end.dataFiles, "files");
        report.result("table-mbytes-max", max.bytes / 1e6, "MB");
        report.result("table-mbytes-end", end.bytes / 1e6, "MB");
    }

    private Path tableDir() {
        return tableDir(workloads, TABLE);
    }

    /** The directory of table {@code db.name} in the workloads' warehouse. */
    static Path tableDir(FlinkWorkloads workloads, String name) {
        String uri = workloads.warehouseUri();
        Path warehouse = uri.startsWith("file:") ? Paths.get(URI.create(uri)) : Paths.get(uri);
        return warehouse.resolve("db.db").resolve(name);
    }

    static long latestSnapshotId(Path table) throws IOException {
        try (Stream<Path> files = Files.list(table.resolve("snapshot"))) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("snapshot-"))
                    .mapToLong(n -> Long.parseLong(n.substring("snapshot-".length()))).max().orElse(0);
        }
    }

    /** What the table directory holds at one moment. */
    record Counts(long snapshots, long manifests, long dataFiles, long bytes) {
        static Counts of(Path table) {
            long snapshots = 0;
            long manifests = 0;
            long data = 0;
            long bytes = 0;
            try (Stream<Path> all = Files.walk(table)) {
                for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
                    String dir = table.relativize(p).getName(0).toString();
                    String name = p.getFileName().toString();
                    if (dir.equals("snapshot") && name.startsWith("snapshot-")) {
                        snapshots++;
                    } else if (dir.equals("manifest")) {
                        manifests++;
                    } else if (dir.startsWith("bucket-") || dir.contains("=")) {
                        data++;
                    }
                    bytes += size(p);
                }
            } catch (IOException | UncheckedIOException e) {
                // a file expired while the walk looked at it: sample again next time
                return new Counts(0, 0, 0, 0);
            }
            return new Counts(snapshots, manifests, data, bytes);
        }

        private static long size(Path p) {
            try {
                return Files.size(p);
            } catch (IOException e) {
                return 0;
            }
        }

        Counts max(Counts o) {
            return new Counts(Math.max(snapshots, o.snapshots), Math.max(manifests, o.manifests),
                    Math.max(dataFiles, o.dataFiles), Math.max(bytes, o.bytes));
        }

        @Override
        public String toString() {
            return snapshots + " snapshot files, " + manifests + " manifest files, " + dataFiles + " data files, "
                    + String.format("%.1f MB", bytes / 1e6);
        }
    }
}
