package dev.streamhouse.storage.maintenance.tag;

import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.expire.FileCleanup;
import dev.streamhouse.storage.snapshot.Snapshot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The tags of one table: the files {@code <table>/tag/tag-<name>} (docs/format.md §11.1), each holding the
 * tagged snapshot's JSON, written by plain overwrite as Paimon writes them.
 *
 * <p>Names: the only rule Paimon 1.3.1 enforces, "not blank", is enforced here too. Purely numeric
 * names are accepted as Paimon accepts them, although {@code scan.version} looks for a tag of that
 * name before a snapshot id, so such a tag shadows the snapshot with the same id.
 *
 * <p>Deleting tags ({@link #delete(Collection)}, also by {@link #expire} and automatic tag expiration)
 * deletes their files first, so nobody new starts reading them, then, through the {@link FileCleanup}
 * given at construction, the data, changelog, manifest, manifest-list, index and statistics files that
 * only those tags used: a file goes only if no snapshot, tag or long-lived changelog entry still on
 * disk references it. A tag whose snapshot is still retained never frees anything. Failures after the
 * tag files are gone are logged and leave the files to {@code remove_orphan_files}.
 *
 * <p>Apache Paimon 1.3.1's {@code TagManager.deleteTag} (read from its bytecode), for comparison:
 * <ul>
 *   <li>a missing tag is skipped with a warning; if the tagged snapshot file still exists, or another
 *       tag names the same snapshot, only the tag file is deleted;
 *   <li>otherwise the tag file is deleted first, then {@code TagDeletion} deletes the tag's live data
 *       files (merged base and delta manifests) except those of two "skipper" snapshots: the previous
 *       tag's and the earlier of the next tag's and the earliest snapshot; then its base and delta
 *       manifest lists, their manifests, its index files and index manifest and its statistics file
 *       except those the skippers name (not its changelog manifest list or changelog files). Neither
 *       long-lived changelog entries nor branches are looked at, and a failure to read a skipper skips
 *       that part of the cleanup with a log message;
 *   <li>{@code Table.deleteTags} splits the names at commas and deletes them one by one; tag
 *       expiration by retention ({@code TagTimeExpire}) and by {@code tag.num-retained-max}
 *       ({@code TagAutoCreation}, {@code TagBatchCreation}) delete through the same method.
 * </ul>
 * Here every remaining tag, snapshot and changelog entry protects its files, so a tag can be deleted
 * while a changelog entry still reads files its snapshot had, and while branches exist nothing is
 * deleted but the tag files.
 *
 * <p>Errors: I/O failures are {@link IOException}s; a bad name, a missing tag or one that already
 * exists an {@link IllegalArgumentException}; an unreadable tag file a {@link CorruptTagException};
 * all name the tag and the table. Thread-safe (no state besides the paths).
 */
public final class TagManager {
    private static final String TAG_PREFIX = "tag-";

    private static final Logger LOG = LoggerFactory.getLogger(TagManager.class);

    private final FileIO fileIO;
    private final Path tableRoot;
    private final FileCleanup cleanup;
    /** The tags' partitions in a metastore ({@code metastore.tag-to-partition}), or null. */
    private final dev.streamhouse.storage.table.sink.MetastorePartitions asPartitions;

    /** Tags whose deletion deletes only the tag files (for readers of tags). */
    public TagManager(FileIO fileIO, Path tableRoot) {
        this(fileIO, tableRoot, FileCleanup.NONE);
    }

    /** @param cleanup deletes the files only deleted tags used ({@code FileStoreTable#fileCleanup}) */
    public TagManager(FileIO fileIO, Path tableRoot, FileCleanup cleanup) {
        this(fileIO, tableRoot, cleanup, null);
    }

    /**
     * @param asPartitions the tags' partitions in a metastore, kept in step with every creation, renaming
     *     and deletion (after the tag file changed), or null
     */
    public TagManager(FileIO fileIO, Path tableRoot, FileCleanup cleanup,
                      dev.streamhouse.storage.table.sink.MetastorePartitions asPartitions) {
        this.asPartitions = asPartitions;
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.tableRoot = Objects.requireNonNull(tableRoot, "tableRoot");
        this.cleanup = Objects.requireNonNull(cleanup, "cleanup");
    }

    /** A tag and its name. */
    public record NamedTag(String name, Tag tag) {}

    public Path tagDirectory() {
        return new Path(tableRoot, "tag");
    }

    public Path tagPath(String name) {
        return new Path(tagDirectory(), TAG_PREFIX + name);
    }

    public boolean exists(String name) throws IOException {
        return !isBlank(name) && fileIO.exists(tagPath(name));
    }

    /** The tag {@code name}, or empty if there is none. */
    public Optional<Tag> tag(String name) throws IOException {
        checkName(name);
        Path path = tagPath(name);
        String json;
        try {
            if (!fileIO.exists(path)) {
                return Optional.empty();
            }
            json = fileIO.readUtf8(path);
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
        try {
            return Optional.of(TagSerializer.fromJson(json));
        } catch (UnsupportedTableFeatureException e) {
            throw new UnsupportedTableFeatureException("Cannot read tag file " + path + " of table " + tableRoot
                    + ": " + e.getMessage());
        } catch (IllegalArgumentException | ClassCastException e) {
            throw new CorruptTagException(path, "Cannot read tag file " + path + " of table " + tableRoot + ": "
                    + e.getMessage() + "; the file is corrupt, delete the tag or restore the file", e);
        }
    }

    /** The tag {@code name}; fails with an {@link IllegalArgumentException} if there is none. */
    public Tag tagOrThrow(String name) throws IOException {
        return tag(name).orElseThrow(() -> new IllegalArgumentException("Tag '" + name + "' does not exist in table "
                + tableRoot + "; the $tags system table lists its tags"));
    }

    /**
     * Creates tag {@code name} of {@code snapshot}.
     *
     * @param timeRetained how long the tag is kept from now, or null to keep it until it is deleted
     * @throws IllegalArgumentException if the name is blank or the tag exists
     */
    public void create(String name, Snapshot snapshot, Duration timeRetained) throws IOException {
        checkName(name);
        if (fileIO.exists(tagPath(name))) {
            throw new IllegalArgumentException("Cannot create tag '" + name + "' of table " + tableRoot
                    + ": it already exists; use replace_tag to move it, or delete it first");
        }
        write(name, snapshot, timeRetained);
        if (asPartitions != null) {
            asPartitions.tagsCreated(List.of(name));
        }
    }

    /**
     * Points the existing tag {@code name} at {@code snapshot}, with a new retention.
     *
     * @throws IllegalArgumentException if the name is blank or the tag does not exist
     */
    public void replace(String name, Snapshot snapshot, Duration timeRetained) throws IOException {
        checkName(name);
        if (!fileIO.exists(tagPath(name))) {
            throw new IllegalArgumentException("Cannot replace tag '" + name + "' of table " + tableRoot
                    + ": it does not exist; use create_tag");
        }
        write(name, snapshot, timeRetained);
    }

    private void write(String name, Snapshot snapshot, Duration timeRetained) throws IOException {
        Tag tag = new Tag(snapshot, timeRetained == null ? null : LocalDateTime.now(), timeRetained);
        fileIO.mkdirs(tagDirectory());
        fileIO.overwrite(tagPath(name), TagSerializer.toJson(tag).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes {@code tag} as it is (its creation time included), for a rollback that keeps a tag or a
     * copy between tables.
     */
    public void write(String name, Tag tag) throws IOException {
        checkName(name);
        fileIO.mkdirs(tagDirectory());
        fileIO.overwrite(tagPath(name), TagSerializer.toJson(tag).getBytes(StandardCharsets.UTF_8));
        if (asPartitions != null) {
            asPartitions.tagsCreated(List.of(name));
        }
    }

    /**
     * Deletes tag {@code name} and the files only it used (see {@link #delete(Collection)}).
     *
     * @return whether the tag existed
     * @throws IllegalArgumentException if the name is blank
     */
    public boolean delete(String name) throws IOException {
        return !delete(List.of(name)).isEmpty();
    }

    /**
     * Deletes the tags {@code names} (those that do not exist are skipped): their files first, then the
     * files only they used. A tag whose file cannot be read is deleted without freeing any file.
     *
     * @return the names of the tags that existed and were deleted, in the given order
     * @throws IllegalArgumentException if a name is blank (nothing is deleted then)
     * @throws IOException if reading the tags or deleting a tag file fails; the tags deleted before
     *     that are gone, together with the files only they used
     */
    public List<String> delete(Collection<String> names) throws IOException {
        names.forEach(this::checkName);
        List<String> existing = new ArrayList<>();
        List<Snapshot> tagged = new ArrayList<>();
        for (String name : new LinkedHashSet<>(names)) {
            try {
                Optional<Tag> tag = tag(name);
                if (tag.isEmpty()) {
                    continue;
                }
                tagged.add(tag.get().snapshot());
            } catch (CorruptTagException | UnsupportedTableFeatureException e) {
                LOG.warn("Deleting tag '{}' of table {}, whose file cannot be read: the files only it used are left "
                        + "for remove_orphan_files", name, tableRoot, e);
            }
            existing.add(name);
        }
        if (existing.isEmpty()) {
            return List.of();
        }
        FileCleanup.Run run = cleanup.begin("deletion of tags " + existing + " of table " + tableRoot);
        run.tags(tagged);
        List<String> deleted = new ArrayList<>();
        try {
            for (String name : existing) {
                if (fileIO.delete(tagPath(name), false)) {
                    deleted.add(name);
                }
            }
        } finally {
            // Also after a failure: a delete whose outcome is unknown may have happened.
            run.finish();
        }
        if (asPartitions != null) {
            asPartitions.tagsDeleted(deleted);
        }
        return deleted;
    }

    /**
     * Renames tag {@code from} to {@code to}.
     *
     * @throws IllegalArgumentException if a name is blank, {@code from} does not exist or {@code to} does
     */
    public void rename(String from, String to) throws IOException {
        checkName(from);
        checkName(to);
        if (!fileIO.exists(tagPath(from))) {
            throw new IllegalArgumentException("Cannot rename tag '" + from + "' of table " + tableRoot
                    + ": it does not exist");
        }
        if (fileIO.exists(tagPath(to))) {
            throw new IllegalArgumentException("Cannot rename tag '" + from + "' to '" + to + "' in table "
                    + tableRoot + ": tag '" + to + "' already exists");
        }
        if (!fileIO.rename(tagPath(from), tagPath(to))) {
            throw new IOException("Cannot rename tag file " + tagPath(from) + " to " + tagPath(to) + " of table "
                    + tableRoot);
        }
        if (asPartitions != null) {
            asPartitions.tagsDeleted(List.of(from));
            asPartitions.tagsCreated(List.of(to));
        }
    }

    /** Names of all tags, in file-name order. */
    public List<String> names() throws IOException {
        List<String> names = new ArrayList<>();
        for (FileStatus status : fileIO.list(tagDirectory())) {
            String file = status.path().name();
            if (!status.isDirectory() && file.startsWith(TAG_PREFIX) && file.length() > TAG_PREFIX.length()) {
                names.add(file.substring(TAG_PREFIX.length()));
            }
        }
        names.sort(Comparator.naturalOrder());
        return names;
    }

    /**
     * All tags, by snapshot id and then name. A tag deleted while listing is left out.
     */
    public List<NamedTag> tags() throws IOException {
        List<NamedTag> out = new ArrayList<>();
        for (String name : names()) {
            tag(name).ifPresent(t -> out.add(new NamedTag(name, t)));
        }
        out.sort(Comparator.comparingLong((NamedTag t) -> t.tag().snapshot().id()).thenComparing(NamedTag::name));
        return out;
    }

    /**
     * The snapshots the tags keep alive, by id, each once: what snapshot expiration must not delete
     * the files of.
     */
    public List<Snapshot> taggedSnapshots() throws IOException {
        List<Snapshot> out = new ArrayList<>();
        for (NamedTag t : tags()) {
            if (out.isEmpty() || out.get(out.size() - 1).id() != t.tag().snapshot().id()) {
                out.add(t.tag().snapshot());
            }
        }
        return out;
    }

    /**
     * {@link #taggedSnapshots()} as a supplier, for snapshot expiration; an I/O failure is an
     * {@link java.io.UncheckedIOException} (expiration must then delete nothing).
     */
    public java.util.function.Supplier<List<Snapshot>> taggedSnapshotsSupplier() {
        return () -> {
            try {
                return taggedSnapshots();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("Cannot list the tags of table " + tableRoot, e);
            }
        };
    }

    /**
     * Deletes the tags whose retention time has passed at {@code now} and, if {@code olderThan} is set,
     * every tag created before it, as Paimon 1.3.1's tag expiration does: a tag without a creation
     * time counts as created when its file was last modified; tags with neither a retention time nor a
     * creation time only expire by {@code olderThan}. The files only they used go with them, as with
     * {@link #delete(Collection)}.
     *
     * @return the names of the deleted tags, by snapshot id
     */
    public List<String> expire(LocalDateTime now, LocalDateTime olderThan) throws IOException {
        List<String> expired = new ArrayList<>();
        for (NamedTag t : tags()) {
            LocalDateTime created = t.tag().createTime();
            Duration retained = t.tag().timeRetained();
            if (created == null || retained == null) {
                if (olderThan == null) {
                    continue;
                }
                if (created == null) {
                    created = modificationTime(t.name());
                    if (created == null) {
                        continue;
                    }
                }
            }
            boolean retentionPassed = retained != null && now.isAfter(created.plus(retained));
            boolean old = olderThan != null && olderThan.isAfter(created);
            if (retentionPassed || old) {
                expired.add(t.name());
            }
        }
        return delete(expired);
    }

    private LocalDateTime modificationTime(String name) throws IOException {
        try {
            long millis = fileIO.status(tagPath(name)).modificationTimeMillis();
            return LocalDateTime.ofInstant(java.time.Instant.ofEpochMilli(millis), java.time.ZoneId.systemDefault());
        } catch (FileNotFoundException e) {
            return null;
        }
    }

    private void checkName(String name) {
        if (isBlank(name)) {
            throw new IllegalArgumentException("Tag name must not be blank (table " + tableRoot + ")");
        }
    }

    private static boolean isBlank(String name) {
        return name == null || name.isBlank();
    }
}
