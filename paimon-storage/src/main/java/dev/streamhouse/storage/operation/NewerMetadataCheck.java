package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.NewerPaimonFeatures;
import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.snapshot.Snapshot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses to write on top of a snapshot whose metadata holds fields or members a newer Paimon added
 * ({@link NewerPaimonFeatures}): reads skip them, but a commit rewrites the manifest lists and the index
 * manifest from the base snapshot in this store's layout and would drop them (the row-id ranges of
 * manifests, the descriptions of global indexes). The snapshot's own newer members ({@code uuid},
 * {@code operation}) are refused too: a table last written by a newer Paimon is read-only here.
 *
 * <p>Manifest lists and index manifests never change once written, so a file that passed stays
 * passed (the last {@value PassedFiles#REMEMBERED} are remembered). Thread-safe.
 */
public final class NewerMetadataCheck {
    private final ManifestList manifestLists;
    private final IndexManifestFile indexManifests;
    private final String tableName;
    private final PassedFiles passed = new PassedFiles();

    public NewerMetadataCheck(ManifestList manifestLists, IndexManifestFile indexManifests, String tableName) {
        this.manifestLists = manifestLists;
        this.indexManifests = indexManifests;
        this.tableName = tableName;
    }

    /**
     * @param base the snapshot a write builds on, or null for an empty table
     * @throws UnsupportedTableFeatureException naming the snapshot, the file and the newer fields
     */
    public void checkWritable(Snapshot base) throws IOException {
        if (base == null) {
            return;
        }
        List<String> problems = new ArrayList<>();
        if (!base.newerMembers().isEmpty()) {
            problems.add("its snapshot " + base.id() + " has the members "
                    + NewerPaimonFeatures.describe(base.newerMembers(), NewerPaimonFeatures.SNAPSHOT_MEMBERS));
        }
        checkManifestList(base.baseManifestList(), base.baseManifestListSize(), problems);
        checkManifestList(base.deltaManifestList(), base.deltaManifestListSize(), problems);
        if (base.changelogManifestList() != null) {
            checkManifestList(base.changelogManifestList(), base.changelogManifestListSize(), problems);
        }
        if (base.indexManifest() != null && !passed.contains(base.indexManifest())) {
            Set<String> fields = new TreeSet<>();
            int global = 0;
            for (IndexManifestEntry e : indexManifests.read(base.indexManifest())) {
                fields.addAll(e.indexFile().newerFields());
                if (e.indexFile().globalIndex()) {
                    global++;
                }
            }
            if (!fields.isEmpty()) {
                problems.add("its index manifest " + base.indexManifest() + " has the fields " + NewerPaimonFeatures.describe(fields,
                        NewerPaimonFeatures.INDEX_MANIFEST_FIELDS) + (global > 0 ? " (describing " + global
                        + " global index file(s))" : ""));
            } else {
                passed.add(base.indexManifest());
            }
        }
        if (!problems.isEmpty()) {
            throw new UnsupportedTableFeatureException("Cannot write to table " + tableName + ": it was last written "
                    + "by a newer Paimon than 1.3: " + String.join("; ", problems) + ". This store reads such a table "
                    + "but does not write it, since rewriting its metadata would drop them; write it with that Paimon "
                    + "release");
        }
    }

    private void checkManifestList(String name, Long size, List<String> problems) throws IOException {
        if (passed.contains(name)) {
            return;
        }
        Set<String> fields = new TreeSet<>();
        for (ManifestFileMeta m : manifestLists.read(name, size)) {
            fields.addAll(m.newerFields());
        }
        if (fields.isEmpty()) {
            passed.add(name);
        } else {
            problems.add("its manifest list " + name + " has the fields "
                    + NewerPaimonFeatures.describe(fields, NewerPaimonFeatures.MANIFEST_LIST_FIELDS));
        }
    }
}
