package dev.streamhouse.storage.maintenance.tag;

import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Creates the automatic tags of {@code tag.automatic-creation} = {@code process-time} / {@code watermark}
 * as Apache Paimon 1.3.1 does, walking the snapshots committed since the last automatic tag:
 *
 * <ul>
 *   <li>a snapshot's time is its commit time ({@code timeMillis}, in {@code sink.process-time-zone}) or
 *       its watermark (in {@code sink.watermark-time-zone}); snapshots without a watermark are skipped
 *       in watermark mode;
 *   <li>the first snapshot seen when the table has no automatic tag yet creates the tag of the period
 *       before the one its time is in (a snapshot at 2024-05-02 10:00 creates daily tag
 *       {@code 2024-05-01});
 *   <li>after that, a snapshot creates a tag once its time minus {@code tag.creation-delay} is at or past
 *       the end of the period after the last tag: the tag of the period before its own, or with
 *       {@code tag.automatic-completion} the next period after the last tag (so missed periods are
 *       filled in, one per snapshot); a tag that exists is left alone;
 *   <li>each new tag is kept for {@code tag.default-time-retained}, and with {@code tag.num-retained-max}
 *       the oldest automatic tags (names this period parses, by snapshot) beyond the limit are deleted,
 *       with the files only they used ({@link TagManager#delete(java.util.Collection)}); tags created by
 *       hand with other names never count.
 * </ul>
 * The state (the next snapshot and next period) is rebuilt from the newest automatic tag when created,
 * so a restarted writer continues where the last left off. Expired snapshots are skipped.
 *
 * <p>Not thread-safe. Errors are {@link IOException}s; the caller decides whether they fail anything.
 */
public final class AutoTagCreation {
    private static final Logger LOG = LoggerFactory.getLogger(AutoTagCreation.class);

    private final SnapshotManager snapshots;
    private final TagManager tags;
    private final AutoTagConfig config;
    private final TagSuccessFiles successFiles;
    private LocalDateTime nextTag;
    private long nextSnapshot;

    private AutoTagCreation(SnapshotManager snapshots, TagManager tags, AutoTagConfig config,
            TagSuccessFiles successFiles) {
        this.snapshots = snapshots;
        this.tags = tags;
        this.config = config;
        this.successFiles = successFiles;
    }

    /**
     * Reads where the last automatic tag left off.
     *
     * @param successFiles where success files go, or null for none
     * @throws IllegalArgumentException if {@code config} is not periodic
     */
    public static AutoTagCreation open(SnapshotManager snapshots, TagManager tags, AutoTagConfig config,
            TagSuccessFiles successFiles) throws IOException {
        if (!config.periodic()) {
            throw new IllegalArgumentException("Automatic tag creation by period needs 'tag.automatic-creation' = "
                    + "'process-time' or 'watermark', not '" + config.mode() + "'");
        }
        AutoTagCreation creation = new AutoTagCreation(snapshots, tags, config, successFiles);
        List<TagManager.NamedTag> auto = creation.autoTags();
        if (auto.isEmpty()) {
            Long earliest = snapshots.earliestSnapshotId();
            creation.nextSnapshot = earliest == null ? 1 : earliest;
        } else {
            TagManager.NamedTag last = auto.get(auto.size() - 1);
            creation.nextSnapshot = last.tag().snapshot().id() + 1;
            creation.nextTag = config.period().next(config.period().periodStart(last.name()));
        }
        return creation;
    }

    /** Looks at every snapshot committed since the last run and creates the tags that are due. */
    public void run() throws IOException {
        while (true) {
            if (snapshots.snapshotExists(nextSnapshot)) {
                tryToCreate(snapshots.snapshot(nextSnapshot));
                nextSnapshot++;
                continue;
            }
            Long earliest = snapshots.earliestSnapshotId();
            if (earliest != null && earliest > nextSnapshot) {
                nextSnapshot = earliest;
            } else {
                return;
            }
        }
    }

    /**
     * Whether a commit without changes should still make a snapshot now, so that tags keep coming when
     * no data does (Apache Paimon 1.3.1's rule): with process-time tags when the table has no automatic
     * tag yet, or when {@code now} minus {@code tag.creation-delay} has reached the end of the period
     * after the last tag; with watermark tags and {@code snapshot.watermark-idle-timeout} set, when the
     * latest snapshot's watermark is at least that much older than {@code now} (the snapshot then
     * records the committer's newer watermark). Never without a snapshot in watermark mode.
     */
    public boolean forceCreatingSnapshot(Instant now) throws IOException {
        if (config.watermark()) {
            if (config.watermarkIdleTimeout() == null) {
                return false;
            }
            Long watermark = snapshots.latestSnapshot().map(Snapshot::watermark).orElse(null);
            return watermark != null && watermark != Long.MIN_VALUE
                    && !Instant.ofEpochMilli(watermark).isAfter(now.minus(config.watermarkIdleTimeout()));
        }
        if (nextTag == null) {
            return true;
        }
        LocalDateTime local = LocalDateTime.ofInstant(now, config.processTimeZone());
        return !local.minus(config.delay()).isBefore(config.period().next(nextTag));
    }

    /** The time the snapshot stands for in this mode, or empty if it has none (no watermark). */
    public static Optional<LocalDateTime> time(AutoTagConfig config, Snapshot snapshot) {
        if (config.watermark()) {
            Long w = snapshot.watermark();
            if (w == null || w == Long.MIN_VALUE) {
                return Optional.empty();
            }
            return Optional.of(LocalDateTime.ofInstant(Instant.ofEpochMilli(w), config.watermarkTimeZone()));
        }
        return Optional.of(LocalDateTime.ofInstant(Instant.ofEpochMilli(snapshot.timeMillis()),
                config.processTimeZone()));
    }

    private void tryToCreate(Snapshot snapshot) throws IOException {
        Optional<LocalDateTime> found = time(config, snapshot);
        if (found.isEmpty()) {
            return;
        }
        LocalDateTime time = found.get();
        TagPeriod period = config.period();
        if (nextTag != null && time.minus(config.delay()).isBefore(period.next(nextTag))) {
            return;
        }
        LocalDateTime thisTag = config.automaticCompletion() && nextTag != null ? nextTag
                : period.previousPeriodStart(time);
        String name = period.tagName(thisTag);
        if (!tags.exists(name)) {
            String existing = autoTagOf(snapshot.id());
            if (existing != null) {
                // Paimon refuses a second automatic tag on one snapshot; it is skipped here, never failing a commit.
                LOG.warn("Not creating automatic tag '{}' of snapshot {} of table {}: it already has automatic tag '{}'",
                        name, snapshot.id(), snapshots.tableRoot(), existing);
            } else {
                tags.create(name, snapshot, config.defaultTimeRetained());
                if (successFiles != null) {
                    successFiles.created(name, System.currentTimeMillis());
                }
                LOG.info("Created automatic tag '{}' of snapshot {} of table {}", name, snapshot.id(),
                        snapshots.tableRoot());
            }
        }
        nextTag = period.next(thisTag);
        if (config.numRetainedMax() != null) {
            expireByNumber(tags, config.numRetainedMax(), this::autoTags, successFiles);
        }
    }

    private String autoTagOf(long snapshotId) throws IOException {
        for (TagManager.NamedTag t : autoTags()) {
            if (t.tag().snapshot().id() == snapshotId) {
                return t.name();
            }
        }
        return null;
    }

    /** The automatic tags (names the period parses), by snapshot id then name. */
    List<TagManager.NamedTag> autoTags() throws IOException {
        List<TagManager.NamedTag> out = new ArrayList<>();
        for (TagManager.NamedTag t : tags.tags()) {
            if (config.period().isAutoTag(t.name())) {
                out.add(t);
            }
        }
        return out;
    }

    interface TagLister {
        List<TagManager.NamedTag> list() throws IOException;
    }

    /**
     * Deletes the oldest tags {@code counted} lists beyond {@code max}, with the files only they used;
     * returns their names.
     */
    static List<String> expireByNumber(TagManager tags, int max, TagLister counted, TagSuccessFiles successFiles)
            throws IOException {
        List<TagManager.NamedTag> all = counted.list();
        List<String> oldest = new ArrayList<>();
        for (int i = 0; i < all.size() - max; i++) {
            oldest.add(all.get(i).name());
        }
        if (oldest.isEmpty()) {
            return List.of();
        }
        List<String> deleted = tags.delete(oldest);
        for (String name : deleted) {
            if (successFiles != null) {
                successFiles.deleted(name);
            }
            LOG.info("Deleted tag '{}' of table {}: more than 'tag.num-retained-max' = {} tags", name,
                    tags.tagDirectory(), max);
        }
        return deleted;
    }
}
