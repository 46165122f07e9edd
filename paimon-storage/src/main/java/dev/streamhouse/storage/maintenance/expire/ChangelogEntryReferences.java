package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.Snapshot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the long-lived changelog entries of a table need that expiring snapshots may also name
 * ({@link SnapshotReferences#addChangelogEntrySharedFiles}), cached per entry: an entry file never
 * changes once written, so each is read once per instance, and every snapshot expiration only lists
 * {@code changelog/}. Not thread-safe.
 */
final class ChangelogEntryReferences {
    private final ChangelogManager changelogs;
    private final SnapshotReferences references;
    private final Map<Long, FileSet> cache = new HashMap<>();

    ChangelogEntryReferences(ChangelogManager changelogs, SnapshotReferences references) {
        this.changelogs = changelogs;
        this.references = references;
    }

    /** The shared files of every entry now in {@code changelog/} (unreadable entries fail the call). */
    List<FileSet> current() throws IOException {
        List<Long> ids = changelogs.listChangelogIds();
        cache.keySet().retainAll(ids);
        List<FileSet> out = new ArrayList<>(ids.size());
        for (Long id : ids) {
            FileSet files = cache.get(id);
            if (files == null) {
                Snapshot entry;
                try {
                    entry = changelogs.changelog(id);
                } catch (java.io.FileNotFoundException expiredMeanwhile) {
                    continue;
                }
                files = new FileSet();
                references.addChangelogEntrySharedFiles(entry, files);
                cache.put(id, files);
            }
            out.add(files);
        }
        return out;
    }
}
