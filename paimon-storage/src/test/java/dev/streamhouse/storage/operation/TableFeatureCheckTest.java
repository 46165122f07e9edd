package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.UnsupportedTableFeatureException;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.storage.schema.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tables that another writer (Paimon) created with features this store lacks are refused for what
 * would go wrong: reads where the rows would differ, writes whenever the table would be misformed.
 * The schemas are committed directly, as another implementation would write them.
 */
class TableFeatureCheckTest {
    @TempDir
    java.nio.file.Path dir;
    private int tables;

    /** A primary-key table whose stored schema has {@code extra} options, bypassing this store's validation. */
    private FileStoreTable storedWith(String... extra) throws Exception {
        Path root = new Path(dir.toString() + "/db.db/t" + tables++);
        SchemaManager schemas = new SchemaManager(LocalFileIO.INSTANCE, root, "db.t");
        TableSchema plain = schemas.createTable(Schema.newBuilder().column("id", DataTypes.INT())
                .column("v", DataTypes.STRING()).primaryKey("id").option("bucket", "1").build());
        Map<String, String> options = new HashMap<>(plain.options());
        for (int i = 0; i < extra.length; i += 2) {
            options.put(extra[i], extra[i + 1]);
        }
        assertThat(schemas.commitNewVersion(new TableSchema(plain.version(), 1, plain.fields(), plain.highestFieldId(),
                plain.partitionKeys(), plain.primaryKeys(), options, null, 0L))).isTrue();
        return FileStoreTable.load(LocalFileIO.INSTANCE, root, "db.t");
    }

    @Test
    void theMergeEnginesAreReadAndWrittenAndTheirStreamsNeedAChangelogProducer() throws Exception {
        for (String engine : new String[] {"partial-update", "aggregation", "first-row"}) {
            FileStoreTable t = storedWith("merge-engine", engine);
            t.newReadBuilder().newScan();
            t.newWrite().close();
            assertThatThrownBy(() -> t.newReadBuilder().newStreamScan())
                    .hasMessageStartingWith("Cannot stream-read table db.t: a streaming read of merge engine '"
                            + engine + "' with 'changelog-producer' = 'none'");
        }
    }

    @Test
    void anIncrementalToAutoTagThatIsNoAutomaticTagNameIsRefusedNamingIt() throws Exception {
        assertThatThrownBy(() -> storedWith("incremental-to-auto-tag", "t1").newReadBuilder().newScan())
                .hasMessageContaining("'incremental-to-auto-tag' = 't1'");
    }

    @Test
    void tablesWithDeletionVectorsAreReadAndWritten() throws Exception {
        FileStoreTable t = storedWith("deletion-vectors.enabled", "true");
        assertThat(TestTables.readAll(t)).isEmpty();
        t.newReadBuilder().newStreamScan();
        // also streamed with the compaction changelog producers, whose first plans follow Paimon's levels
        for (String producer : new String[] {"lookup", "full-compaction"}) {
            assertThat(storedWith("deletion-vectors.enabled", "true", "changelog-producer", producer)
                    .newReadBuilder().newStreamScan().plan().splits()).as(producer).isEmpty();
        }
        t.newWrite().close();
    }

    @Test
    void writeOnlyFeaturesStillReadButAreNotWritten() throws Exception {
        FileStoreTable t = storedWith("record-level.expire-time", "1 d", "record-level.time-field", "v");
        assertThat(TestTables.readAll(t)).isEmpty();
        assertThatThrownBy(t::newWrite).isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageContaining("'record-level.expire-time' = '1 d'")
                .hasMessageContaining("'record-level.time-field' = 'v'");
    }

    @Test
    void compactionChangelogTablesAreReadStreamedAndWritten() throws Exception {
        for (String producer : List.of("lookup", "full-compaction")) {
            FileStoreTable t = storedWith("changelog-producer", producer);
            assertThat(TestTables.readAll(t)).isEmpty();
            assertThat(t.newReadBuilder().newStreamScan().plan().splits()).isEmpty();
            t.newWrite().close();
        }
        FileStoreTable forced = storedWith("force-lookup", "true");
        forced.newReadBuilder().newStreamScan();
        forced.newWrite().close();
    }

    @Test
    void optionsWithoutEffectDoNotStopReadsOrWrites() throws Exception {
        FileStoreTable t = storedWith("snapshot.num-retained.max", "3", "tag.automatic-creation", "process-time");
        TestTables.write(t, List.of(dev.streamhouse.storage.data.GenericRow.of(1,
                dev.streamhouse.storage.data.BinaryString.fromString("a"))));
        assertThat(TestTables.readAll(t)).hasSize(1);
    }

    @Test
    void deletionVectorsAreReadOnlyWhereTheyApplyAndIndexFilesOfAnUnknownTypeAreRefused() throws Exception {
        java.util.function.Function<String, dev.streamhouse.storage.index.IndexManifestEntry> entry = type ->
                new dev.streamhouse.storage.index.IndexManifestEntry(dev.streamhouse.storage.manifest.FileKind.ADD,
                        dev.streamhouse.storage.data.BinaryRow.EMPTY_ROW, 0,
                        new dev.streamhouse.storage.index.IndexFileMeta(type, "index-1", 10, 1, null, null));
        TableSchema withVectors = storedWith("deletion-vectors.enabled", "true").schema();
        TableSchema without = storedWith().schema();
        TableSchema append = new TableSchema(without.version(), without.id(), without.fields(),
                without.highestFieldId(), without.partitionKeys(), List.of(), Map.of("deletion-vectors.enabled", "true"),
                null, 0L);
        List<dev.streamhouse.storage.index.IndexManifestEntry> dv = List.of(entry.apply("DELETION_VECTORS"));

        TableFeatureCheck.checkIndexFiles(without, "db.t", List.of(entry.apply("HASH")),
                TableFeatureCheck.Access.BATCH_READ);
        TableFeatureCheck.checkIndexFiles(withVectors, "db.t", dv, TableFeatureCheck.Access.BATCH_READ);
        TableFeatureCheck.checkIndexFiles(withVectors, "db.t", dv, TableFeatureCheck.Access.STREAM_READ);
        TableFeatureCheck.checkIndexFiles(withVectors, "db.t", dv, TableFeatureCheck.Access.WRITE);
        assertThatThrownBy(() -> TableFeatureCheck.checkIndexFiles(without, "db.t", dv,
                TableFeatureCheck.Access.WRITE))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageStartingWith("Cannot write to table db.t: it has deletion vectors (index file index-1), but "
                        + "option 'deletion-vectors.enabled' is not 'true'")
                .hasMessageEndingWith("turn the option back on (with Paimon) to write the table");
        assertThatThrownBy(() -> TableFeatureCheck.checkIndexFiles(append, "db.t", dv,
                TableFeatureCheck.Access.WRITE))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessage("Cannot write to table db.t: it has deletion vectors (index file index-1), which this "
                        + "store does not maintain for append tables yet; writing would leave them stale");
        assertThatThrownBy(() -> TableFeatureCheck.checkIndexFiles(without, "db.t", dv,
                TableFeatureCheck.Access.BATCH_READ))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageStartingWith("Cannot read table db.t: it has deletion vectors (index file index-1), but "
                        + "option 'deletion-vectors.enabled' is not 'true'");
        assertThatThrownBy(() -> TableFeatureCheck.checkIndexFiles(append, "db.t", dv,
                TableFeatureCheck.Access.BATCH_READ))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessageStartingWith("Cannot read table db.t: it has deletion vectors (index file index-1), which "
                        + "are not read yet for append tables");
        assertThatThrownBy(() -> TableFeatureCheck.checkIndexFiles(withVectors, "db.t",
                List.of(entry.apply("GLOBAL_INDEX")), TableFeatureCheck.Access.BATCH_READ))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessage("Cannot read table db.t: it has an index file index-1 of unknown type 'GLOBAL_INDEX' "
                        + "(written by a newer Paimon?)");
    }

    @Test
    void globalIndexesOfNewerPaimonsAreSkippedByReadsAndRefusedForWrites() {
        TableSchema schema = new TableSchema(3, 0, List.of(new dev.streamhouse.storage.types.DataField(0, "id",
                DataTypes.INT().notNull())), 0, List.of(), List.of("id"), Map.of("bucket", "1"), null, 0L);
        java.util.function.BiFunction<String, Boolean, dev.streamhouse.storage.index.IndexManifestEntry> entry =
                (type, global) -> new dev.streamhouse.storage.index.IndexManifestEntry(
                        dev.streamhouse.storage.manifest.FileKind.ADD, dev.streamhouse.storage.data.BinaryRow.EMPTY_ROW,
                        0, new dev.streamhouse.storage.index.IndexFileMeta(type, "index-g", 10, 1, null, null, global,
                                List.of("_GLOBAL_INDEX")));
        List<dev.streamhouse.storage.index.IndexManifestEntry> global = List.of(entry.apply("btree", true),
                entry.apply("an-index-of-2031", true));
        TableFeatureCheck.checkIndexFiles(schema, "db.t", global, TableFeatureCheck.Access.BATCH_READ);
        TableFeatureCheck.checkIndexFiles(schema, "db.t", global, TableFeatureCheck.Access.STREAM_READ);
        assertThatThrownBy(() -> TableFeatureCheck.checkIndexFiles(schema, "db.t", global,
                TableFeatureCheck.Access.WRITE))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessage("Cannot write to table db.t: it has a global index of type 'btree' (index file index-g, "
                        + "added in Apache Paimon 1.4), which this store does not maintain; writing would leave it "
                        + "stale or drop it");
        // Without _GLOBAL_INDEX set, an unknown type cannot be told apart from one that changes rows.
        assertThatThrownBy(() -> TableFeatureCheck.checkIndexFiles(schema, "db.t",
                List.of(entry.apply("full-text", false)), TableFeatureCheck.Access.BATCH_READ))
                .hasMessageContaining("of unknown type 'full-text'");
    }

    @Test
    void dataFilesInFormatsOfNewerPaimonsAreRefusedNamingTheRelease() {
        dev.streamhouse.storage.manifest.DataFileMeta file = dev.streamhouse.storage.manifest.DataFileMeta.forAppend(
                "data-1.vortex", 10, 1, dev.streamhouse.storage.stats.SimpleStats.EMPTY, 0, 0, 0, null, null, null);
        assertThatThrownBy(() -> TableFeatureCheck.checkDataFiles("db.t", List.of(
                new dev.streamhouse.storage.manifest.ManifestEntry(dev.streamhouse.storage.manifest.FileKind.ADD,
                        dev.streamhouse.storage.data.BinaryRow.EMPTY_ROW, 0, 1, file)), TableFeatureCheck.Access.BATCH_READ))
                .isInstanceOf(UnsupportedTableFeatureException.class)
                .hasMessage("Cannot read table db.t: data file data-1.vortex is in format 'vortex' (added in Apache "
                        + "Paimon 2.0), and only Parquet data files are read and written");
    }
}
