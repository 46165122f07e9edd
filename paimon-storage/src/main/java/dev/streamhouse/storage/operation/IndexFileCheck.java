package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.index.IndexManifestFile;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Checks the index files of snapshots before they are read ({@link TableFeatureCheck#checkIndexFiles}),
 * reading each index manifest once: index manifests never change once written, so a name that passed
 * stays passed (the last {@value #REMEMBERED} names are remembered). Thread-safe.
 */
public final class IndexFileCheck {
    private static final int REMEMBERED = 64;

    private final IndexManifestFile indexManifests;
    private final String tableName;
    private final Set<String> passed = Collections.synchronizedSet(Collections.newSetFromMap(
            new LinkedHashMap<String, Boolean>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                    return size() > REMEMBERED;
                }
            }));

    public IndexFileCheck(IndexManifestFile indexManifests, String tableName) {
        this.indexManifests = indexManifests;
        this.tableName = tableName;
    }

    /**
     * @param indexManifest a snapshot's index manifest, or null when it has none
     * @throws dev.streamhouse.storage.UnsupportedTableFeatureException if it lists deletion vectors or
     *     unknown index files
     */
    public void check(String indexManifest, TableFeatureCheck.Access access) throws IOException {
        if (indexManifest == null || passed.contains(indexManifest)) {
            return;
        }
        TableFeatureCheck.checkIndexFiles(tableName, indexManifests.read(indexManifest), access);
        passed.add(indexManifest);
    }
}
