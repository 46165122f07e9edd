package dev.streamhouse.storage.manifest;


import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Combines the entries of several manifests by file identity (docs/format.md §5.4, §5.5).
 *
 * <p>Both operations fail with a {@link CorruptManifestException} naming the manifest and the table
 * when the same file identity is added twice (file names must never be reused). I/O and decoding
 * errors are those of {@link ManifestFile#read}.
 */
public final class FileEntries {
    private FileEntries() {}

    /**
     * The live files of a snapshot whose manifests are {@code manifests} (its base list followed by its
     * delta list): every ADD whose identity no DELETE names. Only manifests with
     * {@code _NUM_DELETED_FILES > 0} are read for deletes and only those with
     * {@code _NUM_ADDED_FILES > 0} for adds, as Paimon does; each is read at most once.
     *
     * @return the live ADD entries in manifest order
     */
    public static List<ManifestEntry> liveEntries(ManifestFile manifestFile, List<ManifestFileMeta> manifests)
            throws IOException {
        return liveEntries(manifestFile, manifests, null);
    }

    /**
     * {@link #liveEntries(ManifestFile, List)} of the partitions and buckets {@code wanted} accepts (all
     * when null). An ADD and its DELETE share partition and bucket, so both are kept or neither; the
     * others are neither decoded whole nor matched, which is what makes a plan of a few partitions cheap.
     */
    public static List<ManifestEntry> liveEntries(ManifestFile manifestFile, List<ManifestFileMeta> manifests,
            EntryFilter wanted) throws IOException {
        Set<FileIdentifier> deleted = new HashSet<>();
        Map<String, List<ManifestEntry>> readForDeletes = new HashMap<>();
        for (ManifestFileMeta meta : manifests) {
            if (meta.numDeletedFiles() > 0) {
                List<ManifestEntry> entries = read(manifestFile, meta, wanted);
                for (ManifestEntry e : entries) {
                    if (e.kind() == FileKind.DELETE) {
                        deleted.add(e.identifier());
                    }
                }
                if (meta.numAddedFiles() > 0) {
                    readForDeletes.put(meta.fileName(), entries);
                }
            }
        }
        Set<FileIdentifier> added = new HashSet<>();
        List<ManifestEntry> live = new ArrayList<>();
        for (ManifestFileMeta meta : manifests) {
            if (meta.numAddedFiles() <= 0) {
                continue;
            }
            List<ManifestEntry> entries = readForDeletes.remove(meta.fileName());
            if (entries == null) {
                entries = read(manifestFile, meta, wanted);
            }
            for (ManifestEntry e : entries) {
                if (e.kind() != FileKind.ADD) {
                    continue;
                }
                FileIdentifier id = e.identifier();
                if (!added.add(id)) {
                    throw addedTwice(manifestFile, meta.fileName(), id, "it was already added by an earlier entry");
                }
                if (!deleted.contains(id)) {
                    live.add(e);
                }
            }
        }
        return live;
    }

    private static List<ManifestEntry> read(ManifestFile manifestFile, ManifestFileMeta meta,
            EntryFilter wanted) throws IOException {
        return wanted == null ? manifestFile.read(meta.fileName(), meta.fileSize())
                : manifestFile.read(meta.fileName(), meta.fileSize(), wanted);
    }

    /**
     * Reads {@code manifests} in order and cancels each DELETE against an earlier ADD of the same
     * identity; DELETEs whose ADD lies outside these manifests are kept. This is the merge of a group of
     * manifests during minor compaction (§5.7) and never changes the live file set.
     *
     * @return the surviving entries in first-seen order
     */
    public static List<ManifestEntry> mergeManifests(ManifestFile manifestFile, List<ManifestFileMeta> manifests)
            throws IOException {
        Map<FileIdentifier, ManifestEntry> merged = new LinkedHashMap<>();
        for (ManifestFileMeta meta : manifests) {
            for (ManifestEntry e : manifestFile.read(meta.fileName(), meta.fileSize())) {
                FileIdentifier id = e.identifier();
                ManifestEntry previous = merged.get(id);
                if (e.kind() == FileKind.ADD) {
                    if (previous != null) {
                        throw addedTwice(manifestFile, meta.fileName(), id, previous.kind() == FileKind.ADD
                                ? "it was already added by an earlier entry"
                                : "it is re-added after being deleted");
                    }
                    merged.put(id, e);
                } else if (previous != null && previous.kind() == FileKind.ADD) {
                    merged.remove(id);
                } else {
                    merged.put(id, e);
                }
            }
        }
        return new ArrayList<>(merged.values());
    }

    private static CorruptManifestException addedTwice(
            ManifestFile manifestFile, String manifestName, FileIdentifier id, String why) {
        dev.streamhouse.storage.fs.Path path = manifestFile.path(manifestName);
        dev.streamhouse.storage.fs.Path table = path.parent() == null ? path : path.parent().parent();
        return new CorruptManifestException(path, "Cannot combine manifests of table " + table + ": manifest file "
                + path + " adds data file " + id + " but " + why + "; file names must never be reused", null);
    }
}
