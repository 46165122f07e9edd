package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An append table partitioned by {@code dt} that records, for every snapshot it commits, the rows the
 * snapshot must read, so tests can check after expiration that each retained snapshot still reads
 * exactly those rows, and that the files on disk are exactly those retained snapshots and tags need.
 */
final class ExpirationFixture {
    final FileStoreTable table;
    final Map<Long, List<String>> expectedRows = new HashMap<>();
    private int nextId;

    ExpirationFixture(FileStoreTable table) {
        this.table = table;
    }

    /** Appends {@code count} rows over partitions d0, d1 as one snapshot. */
    long append(int count) throws Exception {
        List<InternalRow> rows = TestTables.rows(nextId, count, 2);
        nextId += count;
        TestTables.write(table, rows);
        return record();
    }

    /** Replaces partition d0 with {@code count} new rows (an OVERWRITE snapshot deleting its files). */
    long overwriteD0(int count) throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(TestTables.row(nextId + i, "over-" + (nextId + i), "d0"));
        }
        nextId += count;
        try (TableWrite w = table.newOverwriteWrite(); BatchTableCommit c = table.newBatchCommit()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            c.overwrite(Map.of("dt", "d0"), w.prepareCommit());
        }
        return record();
    }

    private long record() throws IOException {
        Snapshot latest = table.latestSnapshot().orElseThrow();
        expectedRows.put(latest.id(), TestTables.readAll(table));
        return latest.id();
    }

    List<String> rowsOf(long snapshotId) throws IOException {
        return TestTables.readAll(table.copy(Map.of("scan.snapshot-id", Long.toString(snapshotId))));
    }

    /** Every snapshot from {@code fromId} to the latest reads exactly the rows it read when committed. */
    void assertRetainedSnapshotsRead(long fromId) throws IOException {
        long latest = table.latestSnapshot().orElseThrow().id();
        for (long id = fromId; id <= latest; id++) {
            assertThat(rowsOf(id)).as("rows of snapshot %s", id).isEqualTo(expectedRows.get(id));
        }
    }

    List<Long> snapshotIds() throws IOException {
        return table.snapshotManager().listSnapshotIds();
    }

    /**
     * The data and manifest files on disk are exactly those the snapshot files left and {@code tagged}
     * reference: nothing needed is gone, nothing unneeded is left.
     */
    void assertFilesOnDiskAreExactlyReferenced(List<Snapshot> tagged) throws IOException {
        Set<String> referenced = new TreeSet<>();
        List<Snapshot> all = new ArrayList<>(tagged);
        for (long id : snapshotIds()) {
            all.add(table.snapshotManager().snapshot(id));
        }
        for (Snapshot s : all) {
            referenced.add("manifest/" + s.baseManifestList());
            referenced.add("manifest/" + s.deltaManifestList());
            for (ManifestFileMeta m : table.snapshotEntries().dataManifests(s)) {
                referenced.add("manifest/" + m.fileName());
            }
            for (ManifestEntry e : table.snapshotEntries().liveEntries(s, ManifestFilter.ALL)) {
                referenced.add(table.paths().renderer().render(e.partition()) + "bucket-" + e.bucket() + "/"
                        + e.file().fileName());
            }
        }
        assertThat(filesOnDisk()).isEqualTo(referenced);
    }

    /** Data files (under dt=*) and manifest-directory files, relative to the table root. */
    Set<String> filesOnDisk() throws IOException {
        FileIO io = table.fileIO();
        Set<String> out = new TreeSet<>();
        for (FileStatus top : io.list(table.location())) {
            String name = top.path().name();
            if (name.equals("manifest")) {
                for (FileStatus f : io.list(top.path())) {
                    out.add("manifest/" + f.path().name());
                }
            } else if (name.startsWith("dt=")) {
                for (FileStatus bucket : io.list(top.path())) {
                    for (FileStatus f : io.list(bucket.path())) {
                        if (!f.path().name().startsWith(".")) {
                            out.add(name + "/" + bucket.path().name() + "/" + f.path().name());
                        }
                    }
                }
            }
        }
        return out;
    }

    static Path root(java.nio.file.Path tmp) {
        return new Path(tmp.resolve("t").toString());
    }
}
