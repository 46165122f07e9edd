package dev.streamhouse.storage.tag;

import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.snapshot.Snapshot;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The tags of one table: the files {@code <table>/tag/tag-<name>} (FORMAT §11.1), each holding the
 * tagged snapshot's JSON, written by plain overwrite as Paimon writes them.
 *
 * <p>Names: the only rule Paimon 1.3.1 enforces, "not blank", is enforced here too. Purely numeric
 * names are accepted as Paimon accepts them, although {@code scan.version} looks for a tag of that
 * name before a snapshot id, so such a tag shadows the snapshot with the same id.
 *
 * <p>Deleting a tag deletes only its file: data and manifest files that only this tag kept alive stay
 * on disk until orphan-file cleanup removes them (snapshot expiration never deletes a file a retained
 * snapshot or tag still needs, so they are unreferenced then). This class never touches snapshot or
 * data files.
 *
 * <p>Errors: I/O failures are {@link IOException}s; a bad name, a missing tag or one that already
 * exists an {@link IllegalArgumentException}; an unreadable tag file a {@link CorruptTagException};
 * all name the tag and the table. Thread-safe (no state besides the paths).
 */
public final class TagManager {
    private static final String TAG_PREFIX = "tag-";

    private final FileIO fileIO;
    private final Path tableRoot;

    public TagManager(FileIO fileIO, Path tableRoot) {
        this.fileIO = Objects.requireNonNull(fileIO, "fileIO");
        this.tableRoot = Objects.requireNonNull(tableRoot, "tableRoot");
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
    }

    /**
     * Deletes tag {@code name}'s file (the files only it kept alive are left to orphan cleanup).
     *
     * @return whether the tag existed
     * @throws IllegalArgumentException if the name is blank
     */
    public boolean delete(String name) throws IOException {
        checkName(name);
        Path path = tagPath(name);
        if (!fileIO.exists(path)) {
            return false;
        }
        return fileIO.delete(path, false);
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
     * creation time only expire by {@code olderThan}.
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
            if ((retentionPassed || old) && delete(t.name())) {
                expired.add(t.name());
            }
        }
        return expired;
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
