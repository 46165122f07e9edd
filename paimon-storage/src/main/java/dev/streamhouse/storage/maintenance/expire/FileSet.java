package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.Path;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Files of a table by kind, as full paths: what some snapshots reference (to protect) or what expired
 * snapshots referenced (to delete). Deletion follows the order of the kinds: files that hold rows
 * first, then the metadata that names them.
 */
final class FileSet {
    /** Data files with their extra files, changelog files and index files (hash index, deletion vectors). */
    final Set<Path> contentFiles = new LinkedHashSet<>();
    /** Data and changelog manifests, index manifests. */
    final Set<Path> manifests = new LinkedHashSet<>();
    /** Manifest lists. */
    final Set<Path> manifestLists = new LinkedHashSet<>();
    /** Statistics files. */
    final Set<Path> statistics = new LinkedHashSet<>();

    /** Removes from this set every file {@code kept} holds. */
    void removeAll(FileSet kept) {
        contentFiles.removeAll(kept.contentFiles);
        manifests.removeAll(kept.manifests);
        manifestLists.removeAll(kept.manifestLists);
        statistics.removeAll(kept.statistics);
    }

    /** Adds every file {@code other} holds. */
    void addAll(FileSet other) {
        contentFiles.addAll(other.contentFiles);
        manifests.addAll(other.manifests);
        manifestLists.addAll(other.manifestLists);
        statistics.addAll(other.statistics);
    }

    int size() {
        return contentFiles.size() + manifests.size() + manifestLists.size() + statistics.size();
    }
}
