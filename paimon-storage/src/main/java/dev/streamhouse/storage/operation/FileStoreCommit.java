package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CommitStats;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Commits writers' files as snapshots (docs/format.md §4.3): apply the changes to the latest snapshot,
 * publish by create-if-absent of the next snapshot file, and on a lost race clean up, refresh and
 * retry with bounded backoff.
 *
 * <p>Exactly-once: every snapshot records (commit user, commit identifier). A commit whose outcome was
 * uncertain is checked on the next call with the same identifier, and {@link #filterCommitted} tells a
 * restarted job which identifiers already landed. A commit with changes of both kinds makes two
 * snapshots with the same identifier: APPEND (or OVERWRITE) first, then COMPACT; if the COMPACT part
 * fails after the first part was published, retrying the same committable on the same instance
 * publishes only the COMPACT part. {@link #overwrite} replaces partitions (OVERWRITE snapshots).
 *
 * <p>Not thread-safe; one instance per committer.
 */
public final class FileStoreCommit {
    private final FileIO fileIO;
    private final Path manifestDir;
    private final String tableName;
    private final SchemaManager schemas;
    private final CommitContext ctx;
    private final ConflictChecker conflicts;
    private final NewerMetadataCheck newerMetadata;
    /** The id of the last snapshot this instance published (built on checked metadata), or -1. */
    private long lastPublishedId = -1;
    private final RetryBackoff backoff;
    /** For (identifier, kind) whose publication was uncertain: the latest snapshot id before it. */
    private final Map<String, Long> uncertain = new HashMap<>();
    /** The committable whose first part was published before its second part failed, or null. */
    private PartialCommit resumable;
    private java.util.function.Consumer<CommitStats> statsListener;
    /** Of the commit running: attempts made and snapshots published (with the last one's id). */
    private int attempts;
    private int generated;
    private long lastSnapshotId;

    /** What one snapshot of a commit publishes. */
    private record Changes(List<ManifestEntry> entries, List<ManifestEntry> changelog,
            List<IndexManifestEntry> index) {}

    /** The changes of one attempt, computed on top of the latest snapshot (null: nothing to commit). */
    @FunctionalInterface
    private interface ChangeSource {
        Changes on(Snapshot latest) throws IOException;
    }

    /** A committable of which the parts in {@code done} are published. */
    private record PartialCommit(long identifier, List<CommitMessage> messages, Set<CommitKind> done) {
        boolean isRetryOf(ManifestCommittable c) {
            return c.identifier() == identifier && c.messages().equals(messages);
        }
    }

    public FileStoreCommit(FileIO fileIO, Path manifestDir, String tableName, SchemaManager schemas,
            SnapshotManager snapshots, SnapshotEntries entries, ManifestFile manifestFile, ManifestList manifestList,
            IndexManifestFile indexManifestFile, CommitSettings settings, String commitUser) {
        this.fileIO = fileIO;
        this.manifestDir = manifestDir;
        this.tableName = tableName;
        this.schemas = schemas;
        this.ctx = new CommitContext(manifestFile, manifestList, indexManifestFile, snapshots, entries, settings, commitUser);
        this.conflicts = new ConflictChecker(entries, schemas, indexManifestFile, tableName, commitUser);
        this.newerMetadata = new NewerMetadataCheck(manifestList, indexManifestFile, tableName);
        this.backoff = new RetryBackoff(settings.minRetryWaitMillis(), settings.maxRetryWaitMillis());
    }

    public String commitUser() {
        return ctx.commitUser();
    }

    /**
     * Hands the {@link CommitStats} of each commit or overwrite that returns normally to {@code listener}
     * (e.g. a job's metrics); it must not throw.
     */
    public void onCommitStats(java.util.function.Consumer<CommitStats> listener) {
        this.statsListener = listener;
    }

    /** Commits one committable; a committable without changes makes no snapshot. */
    public void commit(ManifestCommittable committable) {
        commit(committable, false);
    }

    /**
     * Commits one committable; with {@code forceSnapshot} a committable without changes still makes an
     * APPEND snapshot (with no new files), as Paimon's committer forces for automatic tags.
     */
    public void commit(ManifestCommittable committable, boolean forceSnapshot) {
        CommitChanges changes = CommitChanges.of(committable.messages());
        Changes append = new Changes(changes.appendEntries, changes.appendChangelog, changes.appendIndex);
        CommitKind first = changes.hasAppend() ? changes.appendKind()
                : forceSnapshot && !changes.hasCompact() ? CommitKind.APPEND : null;
        commitParts(committable, first, latest -> append, changes);
    }

    /**
     * Replaces the table's content in the partitions {@code scope} matches (docs/format.md §4.2 OVERWRITE): one
     * OVERWRITE snapshot DELETEs every live data file and every index file (e.g. dynamic-bucket hash
     * indexes) of those partitions and ADDs the committable's new files and index files. The live files
     * are read again at every attempt, so files a concurrent writer appended to those partitions before
     * this commit is published are replaced as well; a concurrent compaction of those partitions that
     * publishes later fails with a conflict. Compaction results in the messages (a writer compacting
     * its own new files) follow as a COMPACT snapshot with the same identifier. When there is nothing
     * to delete or add, no snapshot is made.
     *
     * <p>Identity, retry, cleanup and failure types are those of {@link #commit}.
     *
     * @param scope which partitions to replace; {@link ManifestFilter#ALL} for the whole table
     * @throws InvalidCommitException if a message lies outside {@code scope}, deletes data files or
     *     compacts files that were already in the table (an overwrite writer starts empty and never does)
     */
    public void overwrite(ManifestCommittable committable, ManifestFilter scope) {
        CommitChanges changes = CommitChanges.of(committable.messages());
        for (ManifestEntry e : changes.appendEntries) {
            if (e.kind() == FileKind.DELETE) {
                throw new InvalidCommitException("Cannot overwrite table " + tableName + ": a message deletes file "
                        + e.file().fileName() + "; the messages of an overwrite must come from a writer that ignores "
                        + "the files already in the table (Table.newOverwriteWrite)");
            }
        }
        for (CommitMessage m : committable.messages()) {
            if (!m.isEmpty() && !scope.matchesPartition(m.partition())) {
                throw new InvalidCommitException("Cannot overwrite table " + tableName + ": a message writes to a "
                        + "partition outside the overwritten partitions");
            }
            checkCompactsOnlyItsOwnFiles(m);
        }
        commitParts(committable, CommitKind.OVERWRITE, latest -> overwriteChanges(latest, scope, changes), changes);
    }

    /**
     * An overwrite writer may compact the files it wrote itself (they are ADDed by the OVERWRITE snapshot
     * and replaced by the COMPACT one), but never files that were in the table: the OVERWRITE deletes
     * those, so the COMPACT part would fail after the OVERWRITE was published.
     */
    private void checkCompactsOnlyItsOwnFiles(CommitMessage m) {
        Set<String> own = new HashSet<>();
        m.dataIncrement().newFiles().forEach(f -> own.add(f.fileName()));
        m.compactIncrement().compactAfter().forEach(f -> own.add(f.fileName()));
        for (DataFileMeta f : m.compactIncrement().compactBefore()) {
            if (!own.contains(f.fileName())) {
                throw new InvalidCommitException("Cannot overwrite table " + tableName + ": a message compacts file "
                        + f.fileName() + ", which was already in the table; the messages of an overwrite must come "
                        + "from a writer that ignores the files already in the table (Table.newOverwriteWrite)");
            }
        }
    }

    /** The OVERWRITE changes on top of {@code latest}, or null if they would change nothing. */
    private Changes overwriteChanges(Snapshot latest, ManifestFilter scope, CommitChanges changes) throws IOException {
        List<ManifestEntry> entries = new ArrayList<>();
        List<IndexManifestEntry> index = new ArrayList<>();
        if (latest != null) {
            for (ManifestEntry e : ctx.entries().liveEntries(latest, scope)) {
                entries.add(e.withKind(FileKind.DELETE));
            }
            if (latest.indexManifest() != null) {
                for (IndexManifestEntry e : ctx.indexManifestFile().read(latest.indexManifest())) {
                    if (scope.matchesPartition(e.partition())) {
                        index.add(new IndexManifestEntry(FileKind.DELETE, e.partition(), e.bucket(), e.indexFile()));
                    }
                }
            }
        }
        entries.addAll(changes.appendEntries);
        for (IndexManifestEntry e : changes.appendIndex) {
            // Deleted index files of the messages are in scope, so they are deleted above already.
            if (e.kind() == FileKind.ADD) {
                index.add(e);
            }
        }
        if (entries.isEmpty() && index.isEmpty() && changes.appendChangelog.isEmpty()) {
            return null;
        }
        return new Changes(entries, changes.appendChangelog, index);
    }

    /**
     * Commits the first part ({@code firstKind}, null if there is none) and then the compaction part
     * of a committable. If the second part fails after the first was published, a retry of the same
     * committable on this instance skips the first part instead of publishing it twice.
     */
    private void commitParts(ManifestCommittable committable, CommitKind firstKind, ChangeSource first,
            CommitChanges changes) {
        Set<CommitKind> done = resumable != null && resumable.isRetryOf(committable)
                ? resumable.done : EnumSet.noneOf(CommitKind.class);
        resumable = null;
        long start = System.nanoTime();
        attempts = 0;
        generated = 0;
        lastSnapshotId = -1;
        try {
            if (firstKind != null && !done.contains(firstKind)) {
                commitOnce(first, firstKind, committable);
                done.add(firstKind);
            }
            if (changes.hasCompact() && !done.contains(CommitKind.COMPACT)) {
                Changes compact = new Changes(changes.compactEntries, changes.compactChangelog, changes.compactIndex);
                commitOnce(latest -> compact, CommitKind.COMPACT, committable);
            }
            if (statsListener != null) {
                statsListener.accept(CommitStats.of(committable.messages(),
                        (System.nanoTime() - start) / 1_000_000, attempts, generated, lastSnapshotId));
            }
        } catch (CommitException e) {
            if (!done.isEmpty()) {
                resumable = new PartialCommit(committable.identifier(), committable.messages(), done);
            }
            throw e;
        }
    }

    /**
     * The identifiers among {@code identifiers} that have not been committed by this commit user. The
     * newest snapshot of the user marks everything up to its identifier as committed, since a job
     * commits its identifiers in increasing order.
     */
    public List<Long> filterCommitted(List<Long> identifiers) {
        try {
            Optional<Snapshot> newest = latestSnapshotOfUser();
            List<Long> out = new ArrayList<>();
            for (Long id : identifiers) {
                if (newest.isEmpty() || id > newest.get().commitIdentifier()) {
                    out.add(id);
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot check committed identifiers of table " + tableName, e);
        }
    }

    /**
     * Whether the COMPACT snapshot of {@code identifier} by this commit user landed: true if it is
     * there; false if the scan back from the latest snapshot first meets this user's other snapshot of
     * {@code identifier} (a COMPACT snapshot always follows it) or one of a smaller identifier; empty if
     * the snapshots end (expired) before either.
     */
    public Optional<Boolean> hasCommittedCompaction(long identifier) {
        try {
            Long latest = ctx.snapshots().latestSnapshotId();
            Long earliest = ctx.snapshots().earliestSnapshotId();
            if (latest == null || earliest == null) {
                return Optional.of(false);
            }
            Iterator<Snapshot> it = ctx.snapshots().snapshotsDescending(earliest, latest);
            while (it.hasNext()) {
                Snapshot s = it.next();
                if (!ctx.commitUser().equals(s.commitUser()) || s.commitIdentifier() > identifier) {
                    continue;
                }
                return Optional.of(s.commitIdentifier() == identifier && s.commitKind() == CommitKind.COMPACT);
            }
            return earliest == 1 ? Optional.of(false) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the snapshots of table " + tableName, e);
        }
    }

    /** The newest snapshot committed by this commit user, scanning back from the latest. */
    private Optional<Snapshot> latestSnapshotOfUser() throws IOException {
        Long latest = ctx.snapshots().latestSnapshotId();
        Long earliest = ctx.snapshots().earliestSnapshotId();
        if (latest == null || earliest == null) {
            return Optional.empty();
        }
        Iterator<Snapshot> it = ctx.snapshots().snapshotsDescending(earliest, latest);
        while (it.hasNext()) {
            Snapshot s = it.next();
            if (ctx.commitUser().equals(s.commitUser())) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    private void commitOnce(ChangeSource source, CommitKind kind, ManifestCommittable committable) {
        String key = committable.identifier() + "/" + kind;
        for (int attempt = 0; ; attempt++) {
            attempts++;
            Snapshot latest;
            long schemaId;
            Changes changes;
            try {
                latest = ctx.snapshots().latestSnapshot().orElse(null);
                if (latest != null && latest.id() != lastPublishedId) {
                    newerMetadata.checkWritable(latest);
                }
                Long uncertainFrom = uncertain.get(key);
                if (uncertainFrom != null && landedAfter(uncertainFrom, latest, committable.identifier(), kind)) {
                    uncertain.remove(key);
                    return;
                }
                changes = source.on(latest);
                if (changes == null) {
                    uncertain.remove(key);
                    return;
                }
                conflicts.check(latest, changes.entries(), kind);
                conflicts.checkDeletionVectorFiles(latest, changes.index());
                schemaId = schemas.latest().map(TableSchema::id).orElseThrow(
                        () -> new InvalidCommitException("Cannot commit to table " + tableName + ": it has no schema"));
            } catch (IOException e) {
                throw new CommitFailedException("Cannot commit to table " + tableName
                        + ": reading the latest snapshot failed; nothing was written", e);
            }
            CommitAttempt run = new CommitAttempt(fileIO, manifestDir, ctx);
            boolean published;
            try {
                published = run.run(latest, changes.entries(), changes.changelog(), changes.index(), kind, committable,
                        schemaId);
            } catch (dev.streamhouse.storage.fs.CommitLockUnavailableException e) {
                run.cleanUp();
                throw new CommitFailedException("Cannot commit to table " + tableName + ": " + e.getMessage()
                        + "; the table is unchanged and the commit may be retried", e);
            } catch (IOException e) {
                run.cleanUp();
                throw new CommitFailedException("Cannot commit to table " + tableName
                        + ": writing manifests failed; the table is unchanged and the commit may be retried", e);
            } catch (dev.streamhouse.storage.snapshot.BaseSnapshotRemovedException e) {
                run.cleanUp();
                uncertain.remove(key);
                throw new CommitConflictException(e.getMessage(), e);
            } catch (CommitAttempt.PublishUncertain e) {
                long before = latest == null ? 0 : latest.id();
                Boolean landed = probe(e.snapshotId, committable.identifier(), kind);
                if (landed == null) {
                    uncertain.put(key, before);
                    throw new CommitOutcomeUnknownException("Cannot tell whether snapshot " + e.snapshotId
                            + " of table " + tableName + " was created; nothing was deleted. Retry the commit "
                            + "with the same identifier, which checks before writing again", e.getCause());
                }
                if (landed) {
                    uncertain.remove(key);
                    generated++;
                    lastSnapshotId = e.snapshotId;
                    lastPublishedId = e.snapshotId;
                    return;
                }
                published = false;
            }
            if (published) {
                uncertain.remove(key);
                generated++;
                lastSnapshotId = latest == null ? 1 : latest.id() + 1;
                lastPublishedId = lastSnapshotId;
                return;
            }
            run.cleanUp();
            if (attempt >= ctx.settings().maxRetries()) {
                throw new CommitConflictException("Cannot commit to table " + tableName + ": lost the race for "
                        + "the next snapshot " + (attempt + 1) + " times; increase 'commit.max-retries' or "
                        + "reduce the number of concurrent writers", null);
            }
            backoff.pause(attempt);
        }
    }

    /** Whether snapshot {@code id} exists and is ours: true/false, or null if that cannot be read. */
    private Boolean probe(long id, long identifier, CommitKind kind) {
        try {
            if (!ctx.snapshots().snapshotExists(id)) {
                return false;
            }
            Snapshot s = ctx.snapshots().snapshot(id);
            return isOurs(s, identifier, kind);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private boolean landedAfter(long fromExclusive, Snapshot latest, long identifier, CommitKind kind)
            throws IOException {
        if (latest == null) {
            return false;
        }
        for (long id = fromExclusive + 1; id <= latest.id(); id++) {
            if (ctx.snapshots().snapshotExists(id) && isOurs(ctx.snapshots().snapshot(id), identifier, kind)) {
                return true;
            }
        }
        return false;
    }

    private boolean isOurs(Snapshot s, long identifier, CommitKind kind) {
        return ctx.commitUser().equals(s.commitUser()) && s.commitIdentifier() == identifier && s.commitKind() == kind;
    }
}
