package dev.streamhouse.flink.procedure;

import dev.streamhouse.flink.sink.compact.CompactJob;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.CompactionBuckets;
import dev.streamhouse.storage.table.sink.UncommittedCompactionFiles;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * One compaction of chosen buckets as a Flink batch job ({@link CompactJob}), committed as one COMPACT
 * snapshot or not at all: what {@code CALL sys.compact} and {@code CALL sys.optimize} run. If the job
 * fails, nothing is committed and its new files are deleted: the committer deletes those it received,
 * and this class the rest, found by the file name prefix the job's writers use
 * ({@link UncommittedCompactionFiles}); the job's failure is rethrown.
 */
final class CompactRun {
    /** What the job did: buckets compacted, and the snapshot committed if any changed. */
    record Outcome(int changedBuckets, Optional<Long> snapshotId) {}

    private CompactRun() {}

    static Outcome run(StreamExecutionEnvironment env, Table table, List<CompactionBuckets.Bucket> buckets,
            boolean fullCompaction, int parallelism) throws Exception {
        // The job's files carry a tag of its own, so that a failed job's files can be found and deleted.
        String tag = "c" + UUID.randomUUID().toString().replace("-", "");
        Table tagged = table.copy(UncommittedCompactionFiles.optionsFor(tag));
        long before = tagged.latestSnapshot().map(Snapshot::id).orElse(0L);
        CompactJob job = CompactJob.of(tagged, buckets).fullCompaction(fullCompaction).parallelism(parallelism);
        CompactJob.Result result;
        try {
            result = job.run(env);
        } catch (Exception e) {
            if (committedSnapshot(tagged, before, job.commitUser()).isEmpty()) {
                try {
                    UncommittedCompactionFiles.delete(tagged, buckets, tag);
                } catch (IOException | RuntimeException cleanup) {
                    e.addSuppressed(cleanup);
                }
            }
            throw e;
        }
        Optional<Long> snapshot = result.changedBuckets() == 0 ? Optional.empty()
                : committedSnapshot(tagged, before, job.commitUser());
        return new Outcome(result.changedBuckets(), snapshot);
    }

    /** The snapshot after {@code before} that {@code commitUser} committed, if any (newest first). */
    private static Optional<Long> committedSnapshot(Table table, long before, String commitUser) {
        long latest = table.latestSnapshot().map(Snapshot::id).orElse(0L);
        for (long id = latest; id > before; id--) {
            Optional<Snapshot> s = table.snapshot(id);
            if (s.isPresent() && commitUser.equals(s.get().commitUser())) {
                return Optional.of(id);
            }
        }
        return Optional.empty();
    }
}
