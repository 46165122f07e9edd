package dev.streamhouse.storage.table;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every kind of file the store reads, written for real by a table and then damaged behind its back
 * (cut in half, or 16 bytes in the middle inverted): the read or write that needs it fails with a
 * {@link CorruptFileException} whose message names the table and the file, and the partition and
 * bucket for the files that belong to one. Nothing is deleted.
 */
class DamagedFilesTest {
    enum Damage { TRUNCATED, GARBLED_IN_THE_MIDDLE }

    @TempDir
    java.nio.file.Path tmp;

    private java.nio.file.Path root;
    private FileStoreTable table;
    private BinaryRow partition;

    /** A partitioned primary-key table with deletion vectors: two commits, the second leaves a vector. */
    private void createDeletionVectorTable() throws Exception {
        root = tmp.resolve("dv");
        Schema schema = Schema.newBuilder()
                .column("dt", DataTypes.STRING().notNull())
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "1")
                .option("deletion-vectors.enabled", "true")
                .option("num-levels", "5")
                .build();
        table = TestTables.create(LocalFileIO.INSTANCE, new Path(root.toString()), schema);
        TableCommit commit = table.newStreamCommit("u");
        try (TableWrite write = table.newWrite()) {
            upsert(write, 0, 100, "a");
            List<CommitMessage> first = write.prepareCommit();
            partition = first.get(0).partition();
            commit.commit(1, first);
            write.compact(partition, 0, true);
            commit.commit(2, write.prepareCommit());
            upsert(write, 10, 20, "b");
            commit.commit(3, write.prepareCommit());
        }
        assertThat(indexFiles(IndexFileMeta.DELETION_VECTORS_INDEX)).as("a deletion-vector file").isNotEmpty();
    }

    /** A partitioned dynamic-bucket table: its commits write hash index files. */
    private void createDynamicBucketTable() throws Exception {
        root = tmp.resolve("dyn");
        Schema schema = Schema.newBuilder()
                .column("dt", DataTypes.STRING().notNull())
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("bucket", "-1")
                .build();
        table = TestTables.create(LocalFileIO.INSTANCE, new Path(root.toString()), schema);
        try (TableWrite write = table.newWrite(); var commit = table.newBatchCommit()) {
            upsert(write, 0, 100, "a");
            commit.commit(write.prepareCommit());
        }
        assertThat(indexFiles(IndexFileMeta.HASH_INDEX)).as("a hash index file").isNotEmpty();
    }

    private static void upsert(TableWrite write, int from, int to, String v) throws Exception {
        for (int id = from; id < to; id++) {
            write.write(GenericRow.of(BinaryString.fromString("2026-12-01"), id, BinaryString.fromString(v + id)));
        }
    }

    private List<IndexManifestEntry> indexFiles(String type) throws Exception {
        Snapshot s = table.latestSnapshot().orElseThrow();
        return table.indexManifestFile().read(s.indexManifest()).stream()
                .filter(e -> type.equals(e.indexFile().indexType())).toList();
    }

    private FileStoreTable reloaded() {
        return FileStoreTable.load(LocalFileIO.INSTANCE, new Path(root.toString()), "default." + root.getFileName());
    }

    private void damage(java.nio.file.Path file, Damage how) throws Exception {
        damage(file, how, Files.size(file) / 2);
    }

    /** Cuts the file in half, or inverts the 16 bytes around {@code middle}. */
    private void damage(java.nio.file.Path file, Damage how, long middle) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        if (how == Damage.TRUNCATED) {
            Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
        } else {
            for (int i = (int) middle - 8; i < middle + 8; i++) {
                bytes[i] = (byte) ~bytes[i];
            }
            Files.write(file, bytes);
        }
    }

    /**
     * The middle of the pages of {@code column} in a Parquet file. Reads notice damage only in the
     * columns they read: partition columns, for one, are taken from the file's directory, so bytes
     * inverted in their pages (or in the footer's statistics) go unnoticed and do not change a row.
     */
    private static long middleOfColumn(java.nio.file.Path file, String column) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        int footerLength = java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 4)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        var footer = org.apache.parquet.format.Util.readFileMetaData(new java.io.ByteArrayInputStream(bytes,
                bytes.length - 8 - footerLength, footerLength));
        for (var chunk : footer.getRow_groups().get(0).getColumns()) {
            var meta = chunk.getMeta_data();
            if (meta.getPath_in_schema().equals(List.of(column))) {
                long start = meta.isSetDictionary_page_offset() ? meta.getDictionary_page_offset()
                        : meta.getData_page_offset();
                return start + meta.getTotal_compressed_size() / 2;
            }
        }
        throw new AssertionError("no column " + column + " in " + file);
    }

    private java.nio.file.Path local(String dir, String name) {
        return root.resolve(dir).resolve(name);
    }

    /** The read fails with a CorruptFileException naming {@code file}, the table and {@code more}. */
    private void assertReadFailsNaming(java.nio.file.Path file, String... more) throws Exception {
        assertFailsNaming(() -> TestTables.readAll(reloaded()), file, more);
    }

    private void assertFailsNaming(org.assertj.core.api.ThrowableAssert.ThrowingCallable action,
            java.nio.file.Path file, String... more) throws Exception {
        List<java.nio.file.Path> before = allFiles();
        assertThatThrownBy(action)
                .satisfies(e -> {
                    CorruptFileException corrupt = outermostCorrupt(e);
                    assertThat(corrupt).as("a CorruptFileException in %s", e).isNotNull();
                    System.out.println(corrupt);
                    assertThat(corrupt.getMessage()).contains(file.getFileName().toString())
                            .containsAnyOf(root.toString(), "default." + root.getFileName());
                    for (String m : more) {
                        assertThat(corrupt.getMessage()).contains(m);
                    }
                });
        assertThat(allFiles()).as("nothing deleted").containsAll(before);
    }

    private static CorruptFileException outermostCorrupt(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CorruptFileException c) {
                return c;
            }
        }
        return null;
    }

    private List<java.nio.file.Path> allFiles() throws Exception {
        try (var walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile).sorted().toList();
        }
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void snapshot(Damage how) throws Exception {
        createDeletionVectorTable();
        java.nio.file.Path file = local("snapshot", "snapshot-" + table.latestSnapshot().orElseThrow().id());
        damage(file, how);
        assertReadFailsNaming(file);
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void schema(Damage how) throws Exception {
        createDeletionVectorTable();
        java.nio.file.Path file = local("schema", "schema-0");
        damage(file, how);
        assertReadFailsNaming(file);
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void manifestList(Damage how) throws Exception {
        createDeletionVectorTable();
        java.nio.file.Path file = local("manifest", table.latestSnapshot().orElseThrow().baseManifestList());
        damage(file, how);
        assertReadFailsNaming(file);
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void manifest(Damage how) throws Exception {
        createDeletionVectorTable();
        Snapshot s = table.latestSnapshot().orElseThrow();
        java.nio.file.Path file = local("manifest", table.snapshotEntries().dataManifests(s).get(0).fileName());
        damage(file, how);
        assertReadFailsNaming(file);
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void indexManifest(Damage how) throws Exception {
        createDeletionVectorTable();
        java.nio.file.Path file = local("manifest", table.latestSnapshot().orElseThrow().indexManifest());
        damage(file, how);
        assertReadFailsNaming(file);
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void dataFile(Damage how) throws Exception {
        // Without deletion vectors a primary-key table is read by merging, which reads every column of
        // the file (a raw read leaves the key columns out, and would not notice damage to them).
        createDynamicBucketTable();
        String live = table.newFileStoreScan().plan().files().get(0).file().fileName();
        java.nio.file.Path file = root.resolve("dt=2026-12-01/bucket-0").resolve(live);
        damage(file, how, middleOfColumn(file, "v"));
        assertReadFailsNaming(file, "partition dt=2026-12-01, bucket 0",
                how == Damage.TRUNCATED ? "(truncated)" : "cannot be decoded");
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void deletionVectorFile(Damage how) throws Exception {
        createDeletionVectorTable();
        java.nio.file.Path file = local("index", indexFiles(IndexFileMeta.DELETION_VECTORS_INDEX).get(0).indexFile().fileName());
        damage(file, how);
        assertReadFailsNaming(file, "partition dt=2026-12-01, bucket 0");
    }

    @ParameterizedTest
    @EnumSource(value = Damage.class, names = "TRUNCATED")
    void hashIndexFile(Damage how) throws Exception {
        createDynamicBucketTable();
        java.nio.file.Path file = local("index", indexFiles(IndexFileMeta.HASH_INDEX).get(0).indexFile().fileName());
        damage(file, how);
        // The writer of the partition loads its hash index to assign buckets to the new keys.
        assertFailsNaming(() -> {
            try (TableWrite write = reloaded().newWrite(); var commit = reloaded().newBatchCommit()) {
                upsert(write, 100, 110, "c");
                commit.commit(write.prepareCommit());
            }
        }, file, "partition dt=2026-12-01, bucket 0");
    }
}
