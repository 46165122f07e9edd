package dev.streamhouse.storage.maintenance.tag;

import dev.streamhouse.storage.options.TagOptions;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The tags of a table (named snapshots that outlive snapshot expiration, docs/format.md §11.1), with the
 * operations of Apache Paimon 1.3.1's tag procedures: create (from a snapshot id, the latest snapshot,
 * a commit time or a watermark), replace, delete, rename, expire, list.
 *
 * <p>Retention: {@link #create(String, Long, Duration)} and {@link #replace} write exactly the
 * retention they are given (none for null), as Paimon's {@code create_tag} / {@code replace_tag}
 * procedures do; {@link #createFromLatest(String)} applies {@code tag.default-time-retained}, as
 * Paimon's {@code Table.createTag(name)} does. Deleting and expiring tags delete the tag files and
 * then the files only those tags used (see {@link TagManager}, which also says how Paimon 1.3.1 does
 * it).
 *
 * <p>Errors: a blank name, a missing snapshot or tag, an existing tag an
 * {@link IllegalArgumentException} naming it; I/O failures an {@link UncheckedIOException}.
 */
public final class TableTags {
    private final FileStoreTable table;
    private final TagManager tags;

    private TableTags(FileStoreTable table) {
        this.table = table;
        this.tags = table.tagManager();
    }

    /**
     * The tags of {@code table}.
     *
     * @throws UnsupportedOperationException if the table is not stored in the Paimon format
     */
    public static TableTags of(Table table) {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedOperationException("Cannot manage the tags of table " + table.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return new TableTags((FileStoreTable) table);
    }

    /**
     * A tag as {@code t$tags} shows it.
     *
     * @param createTime null for a tag without retention time
     * @param timeRetained null for a tag kept until it is deleted
     */
    public record TagInfo(String name, Snapshot snapshot, LocalDateTime createTime, Duration timeRetained) {}

    /** All tags, by snapshot id and then name. */
    public List<TagInfo> list() {
        return io("list the tags", () -> {
            List<TagInfo> out = new ArrayList<>();
            for (TagManager.NamedTag t : tags.tags()) {
                out.add(info(t.name(), t.tag()));
            }
            return out;
        });
    }

    /** The tag {@code name}, or empty. */
    public Optional<TagInfo> get(String name) {
        return io("read tag '" + name + "'", () -> tags.tag(name).map(t -> info(name, t)));
    }

    /**
     * Creates tag {@code name} of snapshot {@code snapshotId}, or of the latest snapshot when it is null.
     *
     * @param timeRetained how long the tag is kept, or null to keep it until it is deleted
     * @return the tagged snapshot
     */
    public Snapshot create(String name, Long snapshotId, Duration timeRetained) {
        return io("create tag '" + name + "'", () -> {
            Snapshot snapshot = snapshotOrLatest(snapshotId, "create tag '" + name + "'");
            tags.create(name, snapshot, timeRetained);
            return snapshot;
        });
    }

    /** Creates tag {@code name} of the latest snapshot, kept for {@code tag.default-time-retained} if set. */
    public Snapshot createFromLatest(String name) {
        return create(name, null, table.schema().tableOptions().get(TagOptions.TAG_DEFAULT_TIME_RETAINED));
    }

    /**
     * Creates tag {@code name} of the first snapshot committed at or after {@code timestampMillis}: a
     * retained one, or an expired one still held by a tag if that one is earlier, as Paimon's
     * {@code create_tag_from_timestamp} picks it.
     *
     * @throws IllegalArgumentException if no snapshot or tag was committed that late
     */
    public Snapshot createFromTimestamp(String name, long timestampMillis, Duration timeRetained) {
        return io("create tag '" + name + "'", () -> {
            Snapshot found = firstMatching(s -> s.timeMillis() >= timestampMillis, Snapshot::timeMillis);
            if (found == null) {
                throw new IllegalArgumentException("Cannot create tag '" + name + "' of table " + table.fullName()
                        + ": no snapshot was committed at or after " + timestampMillis + " ("
                        + Instant.ofEpochMilli(timestampMillis) + ")");
            }
            tags.create(name, found, timeRetained);
            return found;
        });
    }

    /**
     * Creates tag {@code name} of the first snapshot whose watermark is at least {@code watermark}
     * (retained, or held by a tag if that one is earlier), as Paimon's {@code create_tag_from_watermark}.
     *
     * @throws IllegalArgumentException if no snapshot has such a watermark
     */
    public Snapshot createFromWatermark(String name, long watermark, Duration timeRetained) {
        return io("create tag '" + name + "'", () -> {
            Snapshot found = firstMatching(s -> s.watermark() != null && s.watermark() >= watermark,
                    Snapshot::watermark);
            if (found == null) {
                throw new IllegalArgumentException("Cannot create tag '" + name + "' of table " + table.fullName()
                        + ": no snapshot has a watermark of at least " + watermark);
            }
            tags.create(name, found, timeRetained);
            return found;
        });
    }

    /**
     * The first retained snapshot (ascending ids) that {@code test} accepts, or the tagged snapshot
     * {@code test} accepts with the smallest {@code order} if that is smaller.
     */
    private Snapshot firstMatching(java.util.function.Predicate<Snapshot> test,
            java.util.function.Function<Snapshot, Long> order) throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        Snapshot found = null;
        Long earliest = snapshots.earliestSnapshotId();
        Long latest = snapshots.latestSnapshotId();
        if (earliest != null && latest != null) {
            try {
                Iterator<Snapshot> it = snapshots.snapshotsAscending(earliest, latest);
                while (it.hasNext() && found == null) {
                    Snapshot s = it.next();
                    if (test.test(s)) {
                        found = s;
                    }
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
        for (Snapshot tagged : tags.taggedSnapshots()) {
            if (test.test(tagged) && (found == null || order.apply(tagged) < order.apply(found))) {
                found = tagged;
            }
        }
        return found;
    }

    /**
     * Points the existing tag {@code name} at snapshot {@code snapshotId} (the latest when null), with
     * this retention (none for null).
     *
     * @return the tagged snapshot
     */
    public Snapshot replace(String name, Long snapshotId, Duration timeRetained) {
        return io("replace tag '" + name + "'", () -> {
            Snapshot snapshot = snapshotOrLatest(snapshotId, "replace tag '" + name + "'");
            tags.replace(name, snapshot, timeRetained);
            return snapshot;
        });
    }

    /**
     * Deletes the tags, as {@code CALL sys.delete_tag} with comma-separated names: their files first,
     * then the data, changelog, manifest, index and statistics files that only they used (nothing a
     * retained snapshot, another tag or a long-lived changelog entry uses; see {@link TagManager}). A tag
     * that does not exist is skipped, as Paimon skips it. Once a tag file is gone the deletion has
     * happened: a file that then cannot be deleted is logged and left for {@code remove_orphan_files}.
     *
     * @return the names of the tags that existed
     */
    public List<String> delete(List<String> names) {
        return io("delete tags " + names, () -> tags.delete(names));
    }

    /** Renames tag {@code from} to {@code to}. */
    public void rename(String from, String to) {
        io("rename tag '" + from + "'", () -> {
            tags.rename(from, to);
            return null;
        });
    }

    /**
     * Deletes the tags whose retention time has passed and, if {@code olderThan} is not null, every
     * tag created before it (see {@link TagManager#expire}), with the files only they used.
     *
     * @return the names of the deleted tags
     */
    public List<String> expire(LocalDateTime olderThan) {
        return io("expire tags", () -> tags.expire(LocalDateTime.now(), olderThan));
    }

    /**
     * Creates the automatic tags that are due and deletes the tags whose retention passed, as
     * {@code CALL sys.trigger_tag_automatic_creation} (see {@link dev.streamhouse.storage.maintenance.tag.PostCommitTags});
     * with {@code tag.automatic-creation} none or batch it only expires tags.
     *
     * @throws IllegalArgumentException if the automatic tag options are invalid
     */
    public void triggerAutomaticCreation() {
        io("create automatic tags", () -> {
            dev.streamhouse.storage.maintenance.tag.PostCommitTags.trigger(table.snapshotManager(), tags,
                    dev.streamhouse.storage.maintenance.tag.AutoTagConfig.from(table.schema().tableOptions()),
                    new dev.streamhouse.storage.maintenance.tag.TagSuccessFiles(table.fileIO(), table.location()));
            return null;
        });
    }

    private Snapshot snapshotOrLatest(Long snapshotId, String what) throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        if (snapshotId == null) {
            return snapshots.latestSnapshot().orElseThrow(() -> new IllegalArgumentException("Cannot " + what
                    + " of table " + table.fullName() + ": the table has no snapshot yet"));
        }
        if (!snapshots.snapshotExists(snapshotId)) {
            throw new IllegalArgumentException("Cannot " + what + " of table " + table.fullName() + ": snapshot "
                    + snapshotId + " does not exist (retained snapshots: " + snapshots.earliestSnapshotId() + " to "
                    + snapshots.latestSnapshotId() + ")");
        }
        return snapshots.snapshot(snapshotId);
    }

    private static TagInfo info(String name, Tag tag) {
        return new TagInfo(name, tag.snapshot(), tag.createTime(), tag.timeRetained());
    }

    private interface IoAction<T> {
        T run() throws IOException;
    }

    private <T> T io(String what, IoAction<T> action) {
        try {
            return action.run();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot " + what + " of table " + table.fullName() + ": "
                    + e.getMessage(), e);
        }
    }
}
