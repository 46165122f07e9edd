package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.commit.CommitMessage;

import java.util.ArrayList;
import java.util.List;

/**
 * A committable's messages as manifest entries, split into the two snapshots a commit may produce:
 * the append part (new files, files deleted by writers, input changelog, index files such as hash
 * indexes) and the compaction part (with its changelog and the deletion-vector index files it replaced).
 * Entry order follows Paimon's: new files, deleted files, then compact-before, compact-after.
 */
final class CommitChanges {
    final List<ManifestEntry> appendEntries = new ArrayList<>();
    final List<ManifestEntry> appendChangelog = new ArrayList<>();
    final List<ManifestEntry> compactEntries = new ArrayList<>();
    final List<ManifestEntry> compactChangelog = new ArrayList<>();
    final List<IndexManifestEntry> appendIndex = new ArrayList<>();
    final List<IndexManifestEntry> compactIndex = new ArrayList<>();

    static CommitChanges of(List<CommitMessage> messages) {
        CommitChanges c = new CommitChanges();
        for (CommitMessage m : messages) {
            add(c.appendEntries, FileKind.ADD, m, m.dataIncrement().newFiles());
            add(c.appendChangelog, FileKind.ADD, m, m.dataIncrement().changelogFiles());
            for (IndexFileMeta f : m.dataIncrement().deletedIndexFiles()) {
                c.appendIndex.add(new IndexManifestEntry(FileKind.DELETE, m.partition(), m.bucket(), f));
            }
            for (IndexFileMeta f : m.dataIncrement().newIndexFiles()) {
                c.appendIndex.add(new IndexManifestEntry(FileKind.ADD, m.partition(), m.bucket(), f));
            }
        }
        for (CommitMessage m : messages) {
            add(c.appendEntries, FileKind.DELETE, m, m.dataIncrement().deletedFiles());
        }
        for (CommitMessage m : messages) {
            add(c.compactEntries, FileKind.DELETE, m, m.compactIncrement().compactBefore());
            add(c.compactEntries, FileKind.ADD, m, m.compactIncrement().compactAfter());
            add(c.compactChangelog, FileKind.ADD, m, m.compactIncrement().changelogFiles());
            for (IndexFileMeta f : m.compactIncrement().deletedIndexFiles()) {
                c.compactIndex.add(new IndexManifestEntry(FileKind.DELETE, m.partition(), m.bucket(), f));
            }
            for (IndexFileMeta f : m.compactIncrement().newIndexFiles()) {
                c.compactIndex.add(new IndexManifestEntry(FileKind.ADD, m.partition(), m.bucket(), f));
            }
        }
        return c;
    }

    private static void add(List<ManifestEntry> out, FileKind kind, CommitMessage m, List<DataFileMeta> files) {
        for (DataFileMeta f : files) {
            out.add(new ManifestEntry(kind, m.partition(), m.bucket(), m.totalBuckets(), f));
        }
    }

    boolean hasAppend() {
        return !appendEntries.isEmpty() || !appendChangelog.isEmpty() || !appendIndex.isEmpty();
    }

    boolean hasCompact() {
        return !compactEntries.isEmpty() || !compactChangelog.isEmpty() || !compactIndex.isEmpty();
    }

    /** APPEND, or OVERWRITE when writers deleted files (e.g. row-level deletes), as Paimon does. */
    CommitKind appendKind() {
        for (ManifestEntry e : appendEntries) {
            if (e.kind() == FileKind.DELETE) {
                return CommitKind.OVERWRITE;
            }
        }
        return CommitKind.APPEND;
    }
}
