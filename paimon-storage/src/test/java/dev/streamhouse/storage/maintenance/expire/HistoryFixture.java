package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.testutils.TableFileOracle;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A primary-key table {@code (id INT, v STRING)} and a model of the rows of every snapshot it ever
 * committed (until a rollback removes it), so tests can check after rollbacks, tag deletions and
 * expirations that every snapshot and tag still on disk reads exactly its rows, and that the files on
 * disk are exactly those the metadata needs ({@link TableFileOracle}).
 */
final class HistoryFixture {
    final FileStoreTable table;
    /** The rows of each snapshot, level 0 included: what writers continue from. */
    private final Map<Long, Map<Integer, String>> states = new HashMap<>();
    /** The rows a batch read of each snapshot returns (deletion vectors: level 0 skipped). */
    private final Map<Long, Map<Integer, String>> visible = new HashMap<>();
    private long latestId;

    HistoryFixture(FileStoreTable table) throws IOException {
        this.table = table;
        this.latestId = table.latestSnapshot().map(Snapshot::id).orElse(0L);
    }

    /** The same model over another table (e.g. a copy of this one's directory). */
    HistoryFixture on(FileStoreTable other) throws IOException {
        HistoryFixture copy = new HistoryFixture(other);
        copy.states.putAll(states);
        copy.visible.putAll(visible);
        copy.latestId = latestId;
        return copy;
    }

    /** {@code (id INT NOT NULL PRIMARY KEY, v STRING)} with one bucket unless the options say otherwise. */
    static Schema pkSchema(String... options) {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return b.build();
    }

    /** Upserts keys {@code from..to-1} with values {@code prefix + key} as one commit. */
    long upsert(int from, int to, String prefix) throws Exception {
        Map<Integer, String> changes = new TreeMap<>();
        for (int k = from; k < to; k++) {
            changes.put(k, prefix + k);
        }
        return commit(changes);
    }

    /** A commit of a few random upserts and deletes over {@code keys} keys. */
    long randomWrite(Random random, int keys) throws Exception {
        Map<Integer, String> changes = new TreeMap<>();
        int n = 1 + random.nextInt(6);
        for (int i = 0; i < n; i++) {
            int key = random.nextInt(keys);
            changes.put(key, random.nextInt(4) == 0 ? null : "v" + random.nextInt(1000));
        }
        return commit(changes);
    }

    /** Commits upserts (null value: delete); returns the latest snapshot id. */
    private long commit(Map<Integer, String> changes) throws Exception {
        Map<Integer, String> state = new TreeMap<>(latestState());
        try (TableWrite w = table.newWrite(); BatchTableCommit c = table.newBatchCommit()) {
            for (Map.Entry<Integer, String> e : changes.entrySet()) {
                if (e.getValue() == null) {
                    w.write(GenericRow.ofKind(RowKind.DELETE, e.getKey(), null));
                    state.remove(e.getKey());
                } else {
                    w.write(GenericRow.of(e.getKey(), BinaryString.fromString(e.getValue())));
                    state.put(e.getKey(), e.getValue());
                }
            }
            c.commit(w.prepareCommit());
        }
        return record(state);
    }

    /** Compacts every bucket with files in one commit (fully or as the strategy decides). */
    long compact(boolean full) throws Exception {
        Map<Integer, String> state = latestState();
        try (TableWrite w = table.newWrite(); BatchTableCommit c = table.newBatchCommit()) {
            Set<PartitionBucket> done = new HashSet<>();
            for (DataSplit s : table.newReadBuilder().newScan().plan().splits()) {
                if (done.add(new PartitionBucket(s.partition(), s.bucket()))) {
                    w.compact(s.partition(), s.bucket(), full);
                }
            }
            c.commit(w.prepareCommit());
        }
        return record(state);
    }

    /**
     * Every snapshot the last commit made (a commit may add a compaction snapshot) holds {@code state};
     * with deletion vectors, whose batch reads skip level 0, an APPEND snapshot still reads the state
     * before the commit (the commit's compaction snapshot moves its rows up).
     */
    private long record(Map<Integer, String> state) throws IOException {
        Map<Integer, String> before = visible.getOrDefault(latestId, Map.of());
        boolean deletionVectors = Boolean.parseBoolean(table.schema().options().get("deletion-vectors.enabled"));
        long id = table.latestSnapshot().map(Snapshot::id).orElse(0L);
        for (long s = latestId + 1; s <= id; s++) {
            boolean levelZeroOnly = deletionVectors
                    && table.snapshotManager().snapshot(s).commitKind() == CommitKind.APPEND;
            states.put(s, state);
            visible.put(s, levelZeroOnly ? before : state);
        }
        latestId = id;
        return id;
    }

    private Map<Integer, String> latestState() {
        return states.getOrDefault(latestId, Map.of());
    }

    /** The model after a rollback to snapshot {@code id}. */
    void rolledBackTo(long id) {
        states.keySet().removeIf(s -> s > id);
        visible.keySet().removeIf(s -> s > id);
        latestId = id;
    }

    long latestId() {
        return latestId;
    }

    /** The rows snapshot {@code id} holds, as {@link TestTables#readAll} shows them. */
    List<String> rowsOf(long id) {
        Map<Integer, String> state = visible.get(id);
        assertThat(state).as("the model knows snapshot %s", id).isNotNull();
        List<InternalRow> rows = new ArrayList<>();
        state.forEach((k, v) -> rows.add(GenericRow.of(k, BinaryString.fromString(v))));
        return TestTables.show(rows);
    }

    /** The snapshots from the earliest one on, ascending. */
    List<Long> retainedSnapshots() throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        Long earliest = snapshots.earliestSnapshotId();
        List<Long> out = new ArrayList<>();
        for (Long id : snapshots.listSnapshotIds()) {
            if (earliest != null && id >= earliest) {
                out.add(id);
            }
        }
        return out;
    }

    /** Every snapshot from the earliest one and every tag read exactly their model rows. */
    void assertEverythingReads(String when) throws IOException {
        for (long id : retainedSnapshots()) {
            assertThat(TestTables.readAll(table.copy(Map.of("scan.snapshot-id", Long.toString(id)))))
                    .as("snapshot %s %s", id, when).isEqualTo(rowsOf(id));
        }
        for (TableTags.TagInfo tag : TableTags.of(table).list()) {
            assertThat(TestTables.readAll(table.copy(Map.of("scan.tag-name", tag.name()))))
                    .as("tag %s (snapshot %s) %s", tag.name(), tag.snapshot().id(), when)
                    .isEqualTo(rowsOf(tag.snapshot().id()));
        }
    }

    /** Nothing the metadata needs is gone and nothing it does not need is left. */
    void assertFilesExactlyNeeded(String when) throws IOException {
        assertThat(TableFileOracle.filesOnDisk(table)).as("files on disk " + when)
                .isEqualTo(TableFileOracle.neededFiles(table));
    }

    /** Whether the delta of snapshot {@code id} moves a file to another level under the same name. */
    boolean upgrades(long id) throws IOException {
        Set<String> deleted = new HashSet<>();
        Set<String> added = new HashSet<>();
        for (ManifestEntry e : table.snapshotEntries().deltaEntries(table.snapshotManager().snapshot(id),
                ManifestFilter.ALL)) {
            (e.kind() == FileKind.DELETE ? deleted : added).add(e.file().fileName());
        }
        deleted.retainAll(added);
        return !deleted.isEmpty();
    }
}
