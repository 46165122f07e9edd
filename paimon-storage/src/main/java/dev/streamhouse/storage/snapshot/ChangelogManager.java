package dev.streamhouse.storage.snapshot;

import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.VersionedFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The long-lived changelog entries of one table, {@code <table>/changelog/changelog-<id>} (docs/format.md
 * §10.3): the JSON of an expired snapshot (same schema as the snapshot file, as Apache Paimon's
 * {@code Changelog} writes it) whose changelog is kept longer than the snapshot, with
 * {@code changelog/EARLIEST} and {@code changelog/LATEST} hints (decimal id, as for snapshots).
 *
 * <p>Entry ids continue below the snapshots: every entry's id is smaller than the earliest snapshot's.
 * An entry is <em>retained</em> if its file exists and its id is at least the earliest entry
 * ({@link #earliestChangelogId()}); changelog expiration moves {@code EARLIEST} past the entries it
 * expires before deleting anything, so a reader never starts on an entry whose files go.
 *
 * <p>Hints are best effort and verified as for snapshots (a hint naming a missing entry falls back to
 * listing). Errors: I/O failures are {@link IOException}s naming the file and the table; an
 * unreadable entry is a {@link CorruptSnapshotException}. Thread-safe.
 */
public final class ChangelogManager {
    private static final Logger LOG = LoggerFactory.getLogger(ChangelogManager.class);
    public static final String CHANGELOG_PREFIX = "changelog-";
    private static final String LATEST = "LATEST";
    private static final String EARLIEST = "EARLIEST";

    private final FileIO fileIO;
    private final Path tableRoot;

    public ChangelogManager(FileIO fileIO, Path tableRoot) {
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.tableRoot = Objects.requireNonNull(tableRoot, "tableRoot");
    }

    public Path changelogDirectory() {
        return new Path(tableRoot, "changelog");
    }

    public Path changelogPath(long id) {
        return new Path(changelogDirectory(), CHANGELOG_PREFIX + id);
    }

    public Path earliestHintPath() {
        return new Path(changelogDirectory(), EARLIEST);
    }

    public Path latestHintPath() {
        return new Path(changelogDirectory(), LATEST);
    }

    public boolean changelogExists(long id) throws IOException {
        return fileIO.exists(changelogPath(id));
    }

    /** Ids of all entry files, ascending (hints and foreign files ignored); empty without a directory. */
    public List<Long> listChangelogIds() throws IOException {
        return VersionedFiles.listIds(fileIO, changelogDirectory(), CHANGELOG_PREFIX);
    }

    /**
     * The id of the oldest retained entry, or null if there is none: {@code EARLIEST} if that entry
     * exists, else the lowest id above the hint found by listing (entries below the hint are being
     * expired), else the lowest id.
     */
    public Long earliestChangelogId() throws IOException {
        Long hint = readHint(earliestHintPath());
        if (hint != null && changelogExists(hint)) {
            return hint;
        }
        List<Long> ids = listChangelogIds();
        if (hint != null) {
            for (Long id : ids) {
                if (id >= hint) {
                    return id;
                }
            }
            return null;
        }
        return ids.isEmpty() ? null : ids.get(0);
    }

    /** The id of the newest entry, or null if there is none ({@code LATEST} if verified, else listing). */
    public Long latestChangelogId() throws IOException {
        Long hint = readHint(latestHintPath());
        if (hint != null && changelogExists(hint) && !changelogExists(hint + 1)) {
            return hint;
        }
        List<Long> ids = listChangelogIds();
        return ids.isEmpty() ? null : ids.get(ids.size() - 1);
    }

    /** Reads entry {@code id}; a missing one is a {@link FileNotFoundException}. */
    public Snapshot changelog(long id) throws IOException {
        Path path = changelogPath(id);
        String json;
        try {
            json = fileIO.readUtf8(path);
        } catch (FileNotFoundException e) {
            FileNotFoundException missing = new FileNotFoundException("Cannot read the long-lived changelog " + id
                    + " of table " + tableRoot + ": file " + path + " does not exist (it may have been expired)");
            missing.initCause(e);
            throw missing;
        }
        Snapshot entry;
        try {
            entry = SnapshotSerializer.fromJson(json);
        } catch (UnsupportedTableFeatureException e) {
            throw new UnsupportedTableFeatureException("Cannot read changelog file " + path + " of table "
                    + tableRoot + ": " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new CorruptSnapshotException(path, "Cannot read changelog file " + path + " of table " + tableRoot
                    + ": " + e.getMessage() + "; the file is corrupt, restore it from a backup or delete it", e);
        }
        if (entry.id() != id) {
            throw new CorruptSnapshotException(path, "Cannot read changelog file " + path + " of table " + tableRoot
                    + ": it holds id " + entry.id() + "; the file is corrupt, restore it from a backup or delete it",
                    null);
        }
        return entry;
    }

    /**
     * Entry {@code id} if it is retained (exists, and is not below the earliest entry), else empty.
     */
    public Optional<Snapshot> retainedChangelog(long id) throws IOException {
        Long earliest = earliestChangelogId();
        if (earliest == null || id < earliest) {
            return Optional.empty();
        }
        try {
            return Optional.of(changelog(id));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /** Writes (or rewrites) the entry of the expired snapshot {@code snapshot}. */
    public void commitChangelog(Snapshot snapshot) throws IOException {
        fileIO.overwrite(changelogPath(snapshot.id()),
                SnapshotSerializer.toJson(snapshot).getBytes(StandardCharsets.UTF_8));
    }

    public void commitEarliestHint(long id) throws IOException {
        fileIO.overwrite(earliestHintPath(), Long.toString(id).getBytes(StandardCharsets.US_ASCII));
    }

    public void commitLatestHint(long id) throws IOException {
        fileIO.overwrite(latestHintPath(), Long.toString(id).getBytes(StandardCharsets.US_ASCII));
    }

    /** Deletes entry file {@code id}; whether it existed. */
    public boolean deleteChangelog(long id) throws IOException {
        return fileIO.delete(changelogPath(id), false);
    }

    /** Deletes both hints (after every entry went). */
    public void deleteHints() throws IOException {
        fileIO.delete(earliestHintPath(), false);
        fileIO.delete(latestHintPath(), false);
    }

    /** The hint's id, or null if absent or unreadable (it may be mid-overwrite). */
    private Long readHint(Path hint) {
        try {
            if (!fileIO.exists(hint)) {
                return null;
            }
            return Long.parseLong(fileIO.readUtf8(hint).trim());
        } catch (IOException | NumberFormatException e) {
            LOG.debug("Cannot read hint file {} of table {}: {}", hint, tableRoot, e.toString());
            return null;
        }
    }
}
