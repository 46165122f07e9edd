package dev.streamhouse.storage.maintenance.tag;

import dev.streamhouse.storage.snapshot.Snapshot;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A tag file {@code tag/tag-<name>} (docs/format.md §11.1): the tagged snapshot and, when the tag has a
 * retention time, when it was created and how long it is kept.
 *
 * @param snapshot the tagged snapshot, exactly as its snapshot file held it
 * @param createTime when the tag was created (local date-time of the creating JVM), or null; Paimon
 *     writes it only together with {@code timeRetained}
 * @param timeRetained how long the tag is kept after {@code createTime}, or null to keep it until it
 *     is deleted
 */
public record Tag(Snapshot snapshot, LocalDateTime createTime, Duration timeRetained) {
    public Tag {
        Objects.requireNonNull(snapshot, "snapshot");
    }

    /** A tag kept until it is deleted. */
    public static Tag of(Snapshot snapshot) {
        return new Tag(snapshot, null, null);
    }

    /**
     * Whether the tag's retention time has passed at {@code now}: false for a tag without a retention
     * time or without a creation time.
     */
    public boolean retentionPassed(LocalDateTime now) {
        return timeRetained != null && createTime != null && now.isAfter(createTime.plus(timeRetained));
    }
}
