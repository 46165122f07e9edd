package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.options.CommitOptions;
import dev.streamhouse.storage.options.ManifestOptions;
import dev.streamhouse.storage.options.Options;

/** Plain values the commit loop needs, read once from table options. */
public record CommitSettings(
        int maxRetries,
        long minRetryWaitMillis,
        long maxRetryWaitMillis,
        long manifestTargetSize,
        int manifestMergeMinCount,
        long manifestFullCompactionSize) {

    public static CommitSettings from(Options options) {
        return new CommitSettings(
                options.get(CommitOptions.COMMIT_MAX_RETRIES),
                options.get(CommitOptions.COMMIT_MIN_RETRY_WAIT).toMillis(),
                options.get(CommitOptions.COMMIT_MAX_RETRY_WAIT).toMillis(),
                options.get(ManifestOptions.MANIFEST_TARGET_FILE_SIZE).bytes(),
                options.get(ManifestOptions.MANIFEST_MERGE_MIN_COUNT),
                options.get(ManifestOptions.MANIFEST_FULL_COMPACTION_SIZE).bytes());
    }
}
