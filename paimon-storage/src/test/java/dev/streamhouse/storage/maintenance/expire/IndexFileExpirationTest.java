package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Index files expire like data files: the deletion-vector files and dynamic-bucket hash indexes of
 * expired snapshots go, those of retained snapshots stay, and every retained snapshot reads its rows.
 */
class IndexFileExpirationTest {
    @TempDir
    java.nio.file.Path tmp;

    private static final ExpireConfig KEEP_TWO = new ExpireConfig(2, Integer.MAX_VALUE, Duration.ZERO, 100, false, null);

    private FileStoreTable create(String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("write-only", "true");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), b.build());
    }

    /** Six commits of upserts over 40 keys, each compacting level 0 when {@code compact}. */
    private Map<Long, java.util.List<String>> write(FileStoreTable table, boolean compact) throws Exception {
        Map<Long, java.util.List<String>> rowsAt = new HashMap<>();
        TableCommit commit = table.newStreamCommit("u");
        try (TableWrite write = table.newWrite()) {
            for (int round = 1; round <= 6; round++) {
                for (int id = round * 5; id < round * 5 + 15; id++) {
                    write.write(GenericRow.of(id % 40, BinaryString.fromString("r" + round)));
                }
                if (compact) {
                    write.compact(dev.streamhouse.storage.data.BinaryRow.EMPTY_ROW, 0, false);
                }
                long before = table.latestSnapshot().map(Snapshot::id).orElse(0L);
                commit.commit(round, write.prepareCommit());
                // A commit with compaction makes two snapshots; remember what each reads now.
                for (long id = before + 1; id <= table.latestSnapshot().orElseThrow().id(); id++) {
                    rowsAt.put(id, readAt(table, id));
                }
            }
        }
        return rowsAt;
    }

    private static java.util.List<String> readAt(FileStoreTable table, long id) throws Exception {
        return TestTables.readAll(table.copy(Map.of("scan.snapshot-id", Long.toString(id))));
    }

    private static Set<String> indexFilesOnDisk(FileStoreTable table) throws Exception {
        Set<String> out = new TreeSet<>();
        for (FileStatus f : table.fileIO().list(table.paths().indexDir())) {
            out.add(f.path().name());
        }
        return out;
    }

    private static Set<String> indexFilesOf(FileStoreTable table, Snapshot s) throws Exception {
        Set<String> out = new TreeSet<>();
        if (s.indexManifest() != null) {
            for (IndexManifestEntry e : table.indexManifestFile().read(s.indexManifest())) {
                out.add(e.indexFile().fileName());
            }
        }
        return out;
    }

    private void check(FileStoreTable table, Map<Long, java.util.List<String>> rowsAt) throws Exception {
        Set<String> before = indexFilesOnDisk(table);
        assertThat(table.newSnapshotExpiration().expire(KEEP_TWO)).isPositive();
        Set<String> referenced = new TreeSet<>();
        for (long id : table.snapshotManager().listSnapshotIds()) {
            referenced.addAll(indexFilesOf(table, table.snapshotManager().snapshot(id)));
            assertThat(readAt(table, id))
                    .as("rows of snapshot %s", id).isEqualTo(rowsAt.get(id));
        }
        assertThat(referenced).isNotEmpty();
        assertThat(indexFilesOnDisk(table)).isEqualTo(referenced);
        assertThat(before.size()).isGreaterThan(referenced.size());
    }

    @Test
    void deletionVectorFilesOfExpiredSnapshotsGoAndRetainedOnesStay() throws Exception {
        FileStoreTable table = create("bucket", "1", "deletion-vectors.enabled", "true", "write-only", "false",
                "snapshot.num-retained.min", "100");
        check(table, write(table, true));
    }

    @Test
    void hashIndexFilesOfExpiredSnapshotsGoAndRetainedOnesStay() throws Exception {
        FileStoreTable table = create("bucket", "-1");
        check(table, write(table, false));
    }
}
