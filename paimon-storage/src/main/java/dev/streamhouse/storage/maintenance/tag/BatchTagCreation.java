package dev.streamhouse.storage.maintenance.tag;

import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * {@code tag.automatic-creation} = {@code batch}: at the end of a batch job's commit, tags the latest
 * snapshot as Apache Paimon 1.3.1 does: named {@code tag.batch.customized-name} or
 * {@code batch-write-<yyyy-MM-dd>} (the snapshot's commit date in {@code sink.process-time-zone}); a
 * tag of that name is replaced; it is kept for {@code tag.default-time-retained}. Then, with
 * {@code tag.num-retained-max}, the oldest tags (all tags count here, as in Paimon's batch mode) beyond
 * the limit are deleted.
 */
public final class BatchTagCreation {
    private static final String PREFIX = "batch-write-";

    private BatchTagCreation() {}

    /**
     * @return the name of the created tag, or empty if the table has no snapshot
     */
    public static Optional<String> createTag(SnapshotManager snapshots, TagManager tags, AutoTagConfig config,
            TagSuccessFiles successFiles) throws IOException {
        Optional<Snapshot> latest = snapshots.latestSnapshot();
        if (latest.isEmpty()) {
            return Optional.empty();
        }
        Snapshot snapshot = latest.get();
        String name = config.batchName() != null ? config.batchName() : PREFIX + LocalDateTime
                .ofInstant(Instant.ofEpochMilli(snapshot.timeMillis()), config.processTimeZone())
                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd"));
        if (tags.delete(name) && successFiles != null) {
            successFiles.deleted(name);
        }
        tags.create(name, snapshot, config.defaultTimeRetained());
        if (successFiles != null) {
            successFiles.created(name, System.currentTimeMillis());
        }
        if (config.numRetainedMax() != null) {
            AutoTagCreation.expireByNumber(tags, config.numRetainedMax(), tags::tags, successFiles);
        }
        return Optional.of(name);
    }
}
