package dev.streamhouse.storage.maintenance.optimize;

import dev.streamhouse.storage.maintenance.expire.TableExpiration;
import dev.streamhouse.storage.maintenance.health.HealthFinding;
import dev.streamhouse.storage.maintenance.health.TableHealth;
import dev.streamhouse.storage.maintenance.orphan.TableOrphanFiles;
import dev.streamhouse.storage.operation.CommitConflictException;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.CompactionBuckets;
import dev.streamhouse.storage.table.sink.TableCompactor;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Fixes what {@link TableHealth} finds, to a chosen {@link OptimizeLevel}: what
 * {@code CALL sys.optimize} runs. Steps, in order:
 * <ol>
 *   <li>check the table's health (the findings before);</li>
 *   <li>compact: {@code LIGHT} minor-compacts the buckets with {@code level0_files} findings (append
 *       tables: {@code small_files}); {@code MODERATE} full-compacts every bucket with a finding whose fix
 *       is a compaction; {@code FULL} full-compacts every live bucket. Only those buckets are compacted,
 *       through a {@link BucketCompaction}, as one COMPACT snapshot;</li>
 *   <li>expire snapshots by the table's retention options (all levels);</li>
 *   <li>{@code FULL} only: remove orphan files older than one day (files a running writer has written but
 *       not committed yet are younger);</li>
 *   <li>check the table's health again (the findings after).</li>
 * </ol>
 *
 * <p>Concurrent writers: compaction only rewrites files, so a streaming writer with
 * {@code 'write-only' = 'true'} (which leaves compaction to jobs like this one, as in Apache Paimon) may
 * keep committing beside it. A writer that compacts itself keeps its own view of its buckets' files
 * and fails over when a compaction committed beside it removed them; so when the table is not
 * write-only and a streaming writer committed recently ({@link #activeWriterWindowMillis}), the
 * compaction step is skipped with a message saying why (the other steps run). If the compaction's
 * commit conflicts (a writer's own compaction replaced the same files
 * first), its files are deleted by the {@link BucketCompaction}, the buckets are planned again from
 * the new snapshot and compacted again, up to {@value #COMPACTION_ATTEMPTS} attempts; after that the
 * compaction is abandoned, reported as an action ("abandoned after ... conflicting commits"), and the
 * remaining steps still run. Other failures are thrown. No row is lost or duplicated either way: a
 * conflicting compaction commits nothing.
 */
public final class TableOptimizer {
    /** How often a compaction whose commit conflicted is planned and run again. */
    public static final int COMPACTION_ATTEMPTS = 3;

    /** How many of the latest snapshots are looked at for a running streaming writer. */
    static final int ACTIVE_WRITER_SNAPSHOTS = 10;

    private final Table table;
    private long orphanMinAgeMillis = TimeUnit.DAYS.toMillis(1);
    private long activeWriterWindowMillis = TimeUnit.MINUTES.toMillis(10);

    /** One thing the optimizer did: {@code compact}, {@code expire_snapshots}, {@code remove_orphan_files}. */
    public record Action(String name, String scope, String outcome) {}

    /** The findings before, the actions taken, the findings after. */
    public record Result(List<HealthFinding> before, List<Action> actions, List<HealthFinding> after) {}

    private TableOptimizer(Table table) {
        this.table = table;
    }

    public static TableOptimizer of(Table table) {
        return new TableOptimizer(table);
    }

    /** Orphan files younger than this stay (default one day), for {@link OptimizeLevel#FULL}. */
    public TableOptimizer orphanMinAgeMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("Cannot optimize table " + table.fullName()
                    + ": the minimum orphan file age must not be negative but is " + millis);
        }
        this.orphanMinAgeMillis = millis;
        return this;
    }

    /**
     * A streaming commit (checkpoint identifier) younger than this among the latest snapshots means a
     * streaming writer is running (default ten minutes).
     */
    public TableOptimizer activeWriterWindowMillis(long millis) {
        this.activeWriterWindowMillis = millis;
        return this;
    }

    /** Runs {@code level}, compacting in this JVM ({@link TableCompactor}). */
    public Result run(OptimizeLevel level) throws Exception {
        return run(level, (buckets, full) -> {
            TableCompactor.Result r = TableCompactor.forTable(table).withBuckets(buckets).withFullCompaction(full)
                    .compact();
            return r.snapshotId().map(id -> "Compacted " + r.changedBuckets() + " of " + r.buckets()
                    + " buckets into snapshot " + id).orElse("Nothing to compact (" + r.buckets() + " buckets checked)");
        });
    }

    /** Runs {@code level}, compacting through {@code compaction}. */
    public Result run(OptimizeLevel level, BucketCompaction compaction) throws Exception {
        List<HealthFinding> before = TableHealth.of(table).check();
        List<Action> actions = new ArrayList<>();
        Optional<String> writer = selfCompactingWriter(System.currentTimeMillis());
        if (writer.isPresent() && !bucketsToCompact(level, before).isEmpty()) {
            actions.add(new Action("compact", "table", "skipped: " + writer.get() + ", and the table is not "
                    + "'write-only', so its writers compact themselves and would fail over on every compaction "
                    + "committed beside them; set 'write-only' = 'true' for the writers to optimize beside them"));
        } else {
            compact(level, before, compaction, actions);
        }
        int expired = TableExpiration.forTable(table).expireSnapshots();
        actions.add(new Action("expire_snapshots", "table", expired + " snapshots expired"));
        if (level == OptimizeLevel.FULL) {
            TableOrphanFiles.Result removed = TableOrphanFiles.of(table)
                    .clean(System.currentTimeMillis() - orphanMinAgeMillis, false);
            actions.add(new Action("remove_orphan_files", "table", removed.deletedFileCount() + " files ("
                    + removed.deletedBytes() + " bytes) removed"));
        }
        return new Result(before, List.copyOf(actions), TableHealth.of(table).check());
    }

    /** The buckets {@code level} compacts given {@code findings}, and whether fully. */
    public List<CompactionBuckets.Bucket> bucketsToCompact(OptimizeLevel level, List<HealthFinding> findings)
            throws Exception {
        if (level == OptimizeLevel.FULL) {
            return CompactionBuckets.live(table, List.of());
        }
        Set<CompactionBuckets.Bucket> out = new LinkedHashSet<>();
        boolean append = table.primaryKeys().isEmpty();
        for (HealthFinding f : findings) {
            if (f.bucket() == null || !f.isFixedByCompaction()) {
                continue;
            }
            boolean light = f.check().equals(append ? "small_files" : "level0_files");
            if (light || level == OptimizeLevel.MODERATE) {
                out.add(f.bucket());
            }
        }
        return new ArrayList<>(out);
    }

    private void compact(OptimizeLevel level, List<HealthFinding> before, BucketCompaction compaction,
            List<Action> actions) throws Exception {
        boolean full = level != OptimizeLevel.LIGHT;
        List<HealthFinding> findings = before;
        for (int attempt = 1; ; attempt++) {
            List<CompactionBuckets.Bucket> buckets = bucketsToCompact(level, findings);
            if (buckets.isEmpty()) {
                if (attempt == 1) {
                    actions.add(new Action("compact", "table", "no bucket needs compaction"));
                }
                return;
            }
            String scope = buckets.size() + (buckets.size() == 1 ? " bucket" : " buckets");
            try {
                String outcome = compaction.compact(buckets, full);
                actions.add(new Action("compact", scope, (full ? "full: " : "minor: ") + outcome
                        + (attempt > 1 ? " (attempt " + attempt + ")" : "")));
                return;
            } catch (Exception e) {
                Optional<Throwable> conflict = conflict(e);
                if (conflict.isEmpty()) {
                    throw e;
                }
                if (attempt == COMPACTION_ATTEMPTS) {
                    actions.add(new Action("compact", scope, "abandoned after " + attempt + " conflicting commits"
                            + " (a concurrent writer compacted the same files): nothing was committed and no row "
                            + "changed; run optimize again later. Last conflict: " + conflict.get().getMessage()));
                    return;
                }
                actions.add(new Action("compact", scope, "attempt " + attempt + " conflicted with a concurrent "
                        + "commit and committed nothing; planning again"));
                findings = TableHealth.of(table).check();
            }
        }
    }

    /**
     * A description of a streaming writer that compacts itself and ran recently, if there is one: the
     * table is not {@code write-only} and one of its {@value #ACTIVE_WRITER_SNAPSHOTS} latest snapshots
     * is a streaming commit (a checkpoint id, not the batch identifier) younger than the window.
     */
    Optional<String> selfCompactingWriter(long nowMillis) {
        if (new Options(table.options()).get(MergeTreeOptions.WRITE_ONLY)) {
            return Optional.empty();
        }
        Optional<Snapshot> latest = table.latestSnapshot();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        long last = latest.get().id();
        for (long id = last; id > Math.max(0, last - ACTIVE_WRITER_SNAPSHOTS); id--) {
            Optional<Snapshot> s = table.snapshot(id);
            if (s.isPresent() && s.get().commitIdentifier() != Snapshot.BATCH_COMMIT_IDENTIFIER
                    && nowMillis - s.get().timeMillis() <= activeWriterWindowMillis) {
                return Optional.of("a streaming writer (commit user " + s.get().commitUser() + ") committed snapshot "
                        + id + " " + (nowMillis - s.get().timeMillis()) / 1000 + " s ago");
            }
        }
        return Optional.empty();
    }

    /** The commit-conflict exception in {@code e}'s cause chain, by class or (serialized by an engine) by name. */
    static Optional<Throwable> conflict(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CommitConflictException || t.toString().contains(CommitConflictException.class.getName())) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
