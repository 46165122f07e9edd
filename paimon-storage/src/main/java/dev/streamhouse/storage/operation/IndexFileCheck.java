package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.schema.TableSchema;

import java.io.IOException;

/**
 * Checks the index files of snapshots before they are read ({@link TableFeatureCheck#checkIndexFiles}),
 * reading each index manifest once per kind of access: index manifests never change once written, so a
 * name that passed stays passed (the last {@value PassedFiles#REMEMBERED} are remembered). Thread-safe.
 */
public final class IndexFileCheck {
    private final IndexManifestFile indexManifests;
    private final TableSchema schema;
    private final String tableName;
    private final PassedFiles passed = new PassedFiles();

    /** @param schema the schema of the table, whose options decide whether deletion vectors are read */
    public IndexFileCheck(IndexManifestFile indexManifests, TableSchema schema, String tableName) {
        this.indexManifests = indexManifests;
        this.schema = schema;
        this.tableName = tableName;
    }

    /**
     * @param indexManifest a snapshot's index manifest, or null when it has none
     * @throws dev.streamhouse.storage.UnsupportedTableFeatureException if it lists unknown index files,
     *     or deletion vectors that {@code access} cannot use
     */
    public void check(String indexManifest, TableFeatureCheck.Access access) throws IOException {
        String key = access + ":" + indexManifest;
        if (indexManifest == null || passed.contains(key)) {
            return;
        }
        TableFeatureCheck.checkIndexFiles(schema, tableName, indexManifests.read(indexManifest), access);
        passed.add(key);
    }
}
