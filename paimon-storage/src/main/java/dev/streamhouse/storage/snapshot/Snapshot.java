package dev.streamhouse.storage.snapshot;

import java.util.List;
import java.util.Map;

/**
 * A snapshot file {@code snapshot/snapshot-<id>} (docs/format.md §4.1). Nullable components are omitted from
 * the JSON when null, except {@code changelogManifestList}, which is always written.
 *
 * @param commitIdentifier the transaction id: a checkpoint id for streaming jobs, Long.MAX_VALUE for
 *     batch commits
 * @param newerMembers members of a newer Paimon the snapshot was read with that do not change its rows
 *     ({@link dev.streamhouse.storage.NewerPaimonFeatures#SNAPSHOT_MEMBERS}, e.g. {@code uuid}); such a
 *     snapshot is never written again (as a tag, or into {@code changelog/}), since that would drop them
 */
public record Snapshot(
        int version,
        long id,
        long schemaId,
        String baseManifestList,
        Long baseManifestListSize,
        String deltaManifestList,
        Long deltaManifestListSize,
        String changelogManifestList,
        Long changelogManifestListSize,
        String indexManifest,
        String commitUser,
        long commitIdentifier,
        CommitKind commitKind,
        long timeMillis,
        Map<Integer, Long> logOffsets,
        Long totalRecordCount,
        Long deltaRecordCount,
        Long changelogRecordCount,
        Long watermark,
        String statistics,
        Map<String, String> properties,
        Long nextRowId,
        List<String> newerMembers) {

    public Snapshot {
        newerMembers = List.copyOf(newerMembers);
    }

    /** A snapshot of this store's layout (no members of a newer Paimon). */
    public Snapshot(int version, long id, long schemaId, String baseManifestList, Long baseManifestListSize,
            String deltaManifestList, Long deltaManifestListSize, String changelogManifestList,
            Long changelogManifestListSize, String indexManifest, String commitUser, long commitIdentifier,
            CommitKind commitKind, long timeMillis, Map<Integer, Long> logOffsets, Long totalRecordCount,
            Long deltaRecordCount, Long changelogRecordCount, Long watermark, String statistics,
            Map<String, String> properties, Long nextRowId) {
        this(version, id, schemaId, baseManifestList, baseManifestListSize, deltaManifestList, deltaManifestListSize,
                changelogManifestList, changelogManifestListSize, indexManifest, commitUser, commitIdentifier,
                commitKind, timeMillis, logOffsets, totalRecordCount, deltaRecordCount, changelogRecordCount, watermark,
                statistics, properties, nextRowId, List.of());
    }

    /** The snapshot format version this store writes. */
    public static final int CURRENT_VERSION = 3;

    /** The commit identifier batch commits use. */
    public static final long BATCH_COMMIT_IDENTIFIER = Long.MAX_VALUE;
}
