package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestFileMerger;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.manifest.WrittenManifestList;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One try at publishing snapshot {@code base.id + 1}: merge the base manifests, write the delta (and
 * changelog) manifests and lists, build the snapshot and create its file if absent. Every metadata
 * file the attempt writes is remembered, so a lost race or a failure before publication can delete
 * exactly those files and nothing else.
 */
final class CommitAttempt {
    /** Publishing failed in a way that leaves open whether the snapshot file exists. */
    static final class PublishUncertain extends Exception {
        private static final long serialVersionUID = 1L;
        final long snapshotId;

        PublishUncertain(long snapshotId, IOException cause) {
            super(cause);
            this.snapshotId = snapshotId;
        }
    }

    private final FileIO fileIO;
    private final Path manifestDir;
    private final CommitContext ctx;
    private final List<String> written = new ArrayList<>();

    CommitAttempt(FileIO fileIO, Path manifestDir, CommitContext ctx) {
        this.fileIO = fileIO;
        this.manifestDir = manifestDir;
        this.ctx = ctx;
    }

    /**
     * Tries to publish; true if the snapshot was created, false if another writer took the id first.
     */
    boolean run(Snapshot base, List<ManifestEntry> entries, List<ManifestEntry> changelog,
            List<IndexManifestEntry> indexChanges, CommitKind kind, ManifestCommittable committable, long schemaId)
            throws IOException, PublishUncertain {
        ManifestFile manifestFile = ctx.manifestFile();
        ManifestList manifestList = ctx.manifestList();
        long newId = base == null ? 1 : base.id() + 1;

        List<ManifestFileMeta> previous = new ArrayList<>();
        if (base != null) {
            previous.addAll(manifestList.read(base.baseManifestList(), base.baseManifestListSize()));
            previous.addAll(manifestList.read(base.deltaManifestList(), base.deltaManifestListSize()));
        }
        CommitSettings s = ctx.settings();
        ManifestFileMerger.Result merged = ManifestFileMerger.merge(previous, manifestFile,
                s.manifestTargetSize(), s.manifestMergeMinCount(), s.manifestFullCompactionSize());
        for (ManifestFileMeta m : merged.newlyWritten()) {
            written.add(m.fileName());
        }
        WrittenManifestList baseList = manifestList.write(merged.merged());
        written.add(baseList.fileName());

        List<ManifestFileMeta> deltaManifests = manifestFile.write(entries);
        deltaManifests.forEach(m -> written.add(m.fileName()));
        WrittenManifestList deltaList = manifestList.write(deltaManifests);
        written.add(deltaList.fileName());

        WrittenManifestList changelogList = null;
        long changelogRows = 0;
        if (!changelog.isEmpty()) {
            List<ManifestFileMeta> changelogManifests = manifestFile.write(changelog);
            changelogManifests.forEach(m -> written.add(m.fileName()));
            changelogList = manifestList.write(changelogManifests);
            written.add(changelogList.fileName());
            for (ManifestEntry e : changelog) {
                changelogRows += e.file().rowCount();
            }
        }

        String indexManifest = base == null ? null : base.indexManifest();
        if (!indexChanges.isEmpty()) {
            indexManifest = ctx.indexManifestFile().write(IndexState.apply(
                    indexManifest == null ? List.of() : ctx.indexManifestFile().read(indexManifest), indexChanges));
            written.add(indexManifest);
        }

        long deltaRows = 0;
        for (ManifestEntry e : entries) {
            deltaRows += e.kind() == FileKind.ADD ? e.file().rowCount() : -e.file().rowCount();
        }
        long previousTotal = base == null ? 0 : totalRecordCount(base);

        Map<Integer, Long> logOffsets = new HashMap<>();
        if (base != null && base.logOffsets() != null) {
            logOffsets.putAll(base.logOffsets());
        }
        logOffsets.putAll(committable.logOffsets());
        Long watermark = maxOrNull(base == null ? null : base.watermark(), committable.watermark());
        String statistics = base != null && base.schemaId() == schemaId ? base.statistics() : null;
        Long nextRowId = base == null || base.nextRowId() == null ? 0L : base.nextRowId();

        Snapshot snapshot = new Snapshot(Snapshot.CURRENT_VERSION, newId, schemaId,
                baseList.fileName(), baseList.fileSize(),
                deltaList.fileName(), deltaList.fileSize(),
                changelogList == null ? null : changelogList.fileName(),
                changelogList == null ? null : changelogList.fileSize(),
                indexManifest,
                ctx.commitUser(), committable.identifier(), kind, System.currentTimeMillis(),
                logOffsets, previousTotal + deltaRows, deltaRows, changelogRows, watermark, statistics,
                null, nextRowId);
        try {
            return ctx.snapshots().tryCommit(snapshot);
        } catch (dev.streamhouse.storage.fs.CommitLockUnavailableException e) {
            throw e;   // nothing was written
        } catch (IOException e) {
            throw new PublishUncertain(newId, e);
        }
    }

    private long totalRecordCount(Snapshot base) throws IOException {
        if (base.totalRecordCount() != null) {
            return base.totalRecordCount();
        }
        long total = 0;
        for (ManifestEntry e : ctx.liveEntries(base)) {
            total += e.file().rowCount();
        }
        return total;
    }

    private static Long maxOrNull(Long a, Long b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : Math.max(a, b);
    }

    /** Deletes every metadata file this attempt wrote; never touches data files or older metadata. */
    void cleanUp() {
        for (String name : written) {
            fileIO.deleteQuietly(new Path(manifestDir, name));
        }
        written.clear();
    }
}
