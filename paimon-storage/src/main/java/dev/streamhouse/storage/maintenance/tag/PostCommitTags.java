package dev.streamhouse.storage.maintenance.tag;

import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.LocalDateTime;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * What runs after each commit for tags, as Apache Paimon 1.3.1's tag auto manager does: automatic tag
 * creation ({@link AutoTagCreation}, process-time / watermark; {@link BatchTagCreation} after a batch
 * commit, identifier {@link Snapshot#BATCH_COMMIT_IDENTIFIER}), then expiration of the tags whose
 * retention time passed, with the files only they used ({@link TagManager#expire}). Never throws: a failure is logged and the next commit's run catches up (the
 * walk over snapshots resumes where it stopped).
 *
 * <p>Not thread-safe (one per committer).
 */
public final class PostCommitTags implements LongConsumer {
    private static final Logger LOG = LoggerFactory.getLogger(PostCommitTags.class);

    private final SnapshotManager snapshots;
    private final TagManager tags;
    private final AutoTagConfig config;
    private final TagSuccessFiles successFiles;
    private final String tableName;
    private AutoTagCreation creation;

    public PostCommitTags(SnapshotManager snapshots, TagManager tags, AutoTagConfig config,
            TagSuccessFiles successFiles, String tableName) {
        this.snapshots = snapshots;
        this.tags = tags;
        this.config = config;
        this.successFiles = config.createSuccessFile() ? successFiles : null;
        this.tableName = tableName;
    }

    /** Runs once (as after a commit with identifier {@code identifier}); never throws. */
    @Override
    public void accept(long identifier) {
        try {
            if (config.periodic()) {
                if (creation == null) {
                    creation = AutoTagCreation.open(snapshots, tags, config, successFiles);
                }
                creation.run();
            } else if (config.batch() && identifier == Snapshot.BATCH_COMMIT_IDENTIFIER) {
                BatchTagCreation.createTag(snapshots, tags, config, successFiles);
            }
        } catch (Exception e) {
            creation = null;
            LOG.warn("Automatic tag creation of table {} failed; the commit is not affected and the next commit "
                    + "catches up", tableName, e);
        }
        try {
            List<String> expired = tags.expire(LocalDateTime.now(), null);
            if (successFiles != null) {
                expired.forEach(successFiles::deleted);
            }
        } catch (Exception e) {
            LOG.warn("Tag expiration of table {} failed; the commit is not affected", tableName, e);
        }
    }

    /**
     * Whether the next commit should make a snapshot even without changes, so that periodic tags keep
     * coming while no data does ({@link AutoTagCreation#forceCreatingSnapshot}); false when tags are not
     * periodic. Never throws: a failure is logged and answers false.
     */
    public boolean forceCreatingSnapshot() {
        if (!config.periodic()) {
            return false;
        }
        try {
            if (creation == null) {
                creation = AutoTagCreation.open(snapshots, tags, config, successFiles);
            }
            return creation.forceCreatingSnapshot(java.time.Instant.now());
        } catch (Exception e) {
            creation = null;
            LOG.warn("Cannot tell whether table {} needs a snapshot for its automatic tags; not forcing one",
                    tableName, e);
            return false;
        }
    }

    /**
     * Runs automatic tag creation and tag expiration now, as {@code CALL sys.trigger_tag_automatic_creation}
     * does (a batch-mode table gets no tag from it, as in Paimon); failures are thrown.
     */
    public static void trigger(SnapshotManager snapshots, TagManager tags, AutoTagConfig config,
            TagSuccessFiles successFiles) throws java.io.IOException {
        TagSuccessFiles files = config.createSuccessFile() ? successFiles : null;
        if (config.periodic()) {
            AutoTagCreation.open(snapshots, tags, config, files).run();
        }
        List<String> expired = tags.expire(LocalDateTime.now(), null);
        if (files != null) {
            expired.forEach(files::deleted);
        }
    }
}
