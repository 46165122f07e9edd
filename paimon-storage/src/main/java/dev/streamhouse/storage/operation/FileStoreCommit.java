package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Commits writers' files as snapshots (FORMAT §4.3): apply the changes to the latest snapshot,
 * publish by create-if-absent of the next snapshot file, and on a lost race clean up, refresh and
 * retry with bounded backoff.
 *
 * <p>Exactly-once: every snapshot records (commit user, commit identifier). A commit whose outcome was
 * uncertain is checked on the next call with the same identifier, and {@link #filterCommitted} tells a
 * restarted job which identifiers already landed. A commit with changes of both kinds makes two
 * snapshots with the same identifier: APPEND (or OVERWRITE) first, then COMPACT.
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
    private final RetryBackoff backoff;
    /** For (identifier, kind) whose publication was uncertain: the latest snapshot id before it. */
    private final Map<String, Long> uncertain = new HashMap<>();

    public FileStoreCommit(FileIO fileIO, Path manifestDir, String tableName, SchemaManager schemas,
            SnapshotManager snapshots, SnapshotEntries entries, ManifestFile manifestFile, ManifestList manifestList,
            IndexManifestFile indexManifestFile, CommitSettings settings, String commitUser) {
        this.fileIO = fileIO;
        this.manifestDir = manifestDir;
        this.tableName = tableName;
        this.schemas = schemas;
        this.ctx = new CommitContext(manifestFile, manifestList, indexManifestFile, snapshots, entries, settings, commitUser);
        this.conflicts = new ConflictChecker(entries, tableName);
        this.backoff = new RetryBackoff(settings.minRetryWaitMillis(), settings.maxRetryWaitMillis());
    }

    public String commitUser() {
        return ctx.commitUser();
    }

    /** Commits one committable; a committable without changes makes no snapshot. */
    public void commit(ManifestCommittable committable) {
        CommitChanges changes = CommitChanges.of(committable.messages());
        if (changes.hasAppend()) {
            commitOnce(changes.appendEntries, changes.appendChangelog, changes.appendIndex, changes.appendKind(),
                    committable);
        }
        if (changes.hasCompact()) {
            commitOnce(changes.compactEntries, changes.compactChangelog, List.of(), CommitKind.COMPACT, committable);
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

    private void commitOnce(List<ManifestEntry> entries, List<ManifestEntry> changelog,
            List<IndexManifestEntry> indexChanges, CommitKind kind, ManifestCommittable committable) {
        String key = committable.identifier() + "/" + kind;
        for (int attempt = 0; ; attempt++) {
            Snapshot latest;
            long schemaId;
            try {
                latest = ctx.snapshots().latestSnapshot().orElse(null);
                Long uncertainFrom = uncertain.get(key);
                if (uncertainFrom != null && landedAfter(uncertainFrom, latest, committable.identifier(), kind)) {
                    uncertain.remove(key);
                    return;
                }
                conflicts.check(latest, entries, kind);
                schemaId = schemas.latest().map(TableSchema::id).orElseThrow(
                        () -> new InvalidCommitException("Cannot commit to table " + tableName + ": it has no schema"));
            } catch (IOException e) {
                throw new CommitFailedException("Cannot commit to table " + tableName
                        + ": reading the latest snapshot failed; nothing was written", e);
            }
            CommitAttempt run = new CommitAttempt(fileIO, manifestDir, ctx);
            boolean published;
            try {
                published = run.run(latest, entries, changelog, indexChanges, kind, committable, schemaId);
            } catch (IOException e) {
                run.cleanUp();
                throw new CommitFailedException("Cannot commit to table " + tableName
                        + ": writing manifests failed; the table is unchanged and the commit may be retried", e);
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
                    return;
                }
                published = false;
            }
            if (published) {
                uncertain.remove(key);
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
