package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.consumer.TableConsumers;
import dev.streamhouse.storage.maintenance.orphan.TableOrphanFiles;
import dev.streamhouse.storage.maintenance.rollback.TableRollback;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.TableRead;
import dev.streamhouse.storage.table.source.TableScan;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole lifecycle at once, driven by a seed: commits of upserts and deletes (each followed by the
 * table's own snapshot expiration, which keeps few snapshots), tags created and deleted, rollbacks to
 * a tag or a retained snapshot, orphan-file removal, and a streaming reader with a consumer id that
 * falls behind and catches up.
 *
 * <p>After every step: every snapshot still on disk and every tag reads exactly the rows the model
 * says it holds (so no file any of them needs is gone), and the reader, whenever it catches up, never
 * fails and holds the rows of the snapshot it reached.
 */
class LifecycleSeededTest {
    private static final int KEYS = 20;
    private static final String CONSUMER = "lagging-reader";

    @TempDir
    java.nio.file.Path tmp;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void everyRetainedSnapshotAndTagReadsItsRowsThroughoutTheLifecycle(long seed) throws Exception {
        Random random = new Random(seed);
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()),
                Schema.newBuilder()
                        .column("id", DataTypes.INT().notNull())
                        .column("v", DataTypes.STRING())
                        .primaryKey("id")
                        .option("bucket", "2")
                        .option("changelog-producer", "input")
                        .option("snapshot.num-retained.min", "2")
                        .option("snapshot.num-retained.max", "4")
                        .option("snapshot.time-retained", "1 ms")
                        .build());
        Model model = new Model();
        Reader reader = null;
        int tags = 0;
        StringBuilder history = new StringBuilder();
        boolean expired = false;

        for (int step = 0; step < 60; step++) {
            int op = random.nextInt(100);
            if (op < 55 || model.snapshots.isEmpty()) {
                long id = write(table, random, model);
                history.append(" w").append(id);
                if (reader == null) {
                    reader = new Reader(table);
                }
            } else if (op < 65) {
                List<Long> retained = retainedSnapshots(table);
                long id = retained.get(random.nextInt(retained.size()));
                String name = "tag" + tags++;
                TableTags.of(table).create(name, id, null);
                model.tags.put(name, id);
                history.append(" t").append(name).append('@').append(id);
            } else if (op < 70 && !model.tags.isEmpty()) {
                String name = new ArrayList<>(model.tags.keySet()).get(random.nextInt(model.tags.size()));
                TableTags.of(table).delete(List.of(name));
                model.tags.remove(name);
                history.append(" d").append(name);
            } else if (op < 76) {
                long target = rollback(table, random, model);
                history.append(" r").append(target);
                // A rollback rewrites history: a reader (and its consumer) starts over.
                TableConsumers.of(table).delete(CONSUMER);
                reader = new Reader(table);
            } else if (op < 84) {
                Thread.sleep(5);
                TableOrphanFiles.of(table).clean(System.currentTimeMillis() - 1, false);
                history.append(" o");
            } else if (reader != null) {
                reader.catchUp(model);
                history.append(" c");
            }
            checkEverythingReads(table, model, "seed " + seed + " after" + history);
            expired |= retainedSnapshots(table).get(0) > 1;
        }
        assertThat(expired).as("some snapshot expired during the run").isTrue();
        if (reader != null) {
            reader.catchUp(model);
        }
    }

    /** Commits a few random upserts and deletes; returns the new snapshot's id. */
    private static long write(FileStoreTable table, Random random, Model model) throws Exception {
        Map<Integer, String> state = new TreeMap<>(model.latest());
        try (TableWrite w = table.newWrite(); BatchTableCommit commit = table.newBatchCommit()) {
            int n = 1 + random.nextInt(6);
            for (int i = 0; i < n; i++) {
                int key = random.nextInt(KEYS);
                if (random.nextInt(4) == 0) {
                    w.write(GenericRow.ofKind(RowKind.DELETE, key, null));
                    state.remove(key);
                } else {
                    String v = "v" + random.nextInt(1000);
                    w.write(GenericRow.of(key, BinaryString.fromString(v)));
                    state.put(key, v);
                }
            }
            commit.commit(w.prepareCommit());
        }
        long id = table.latestSnapshot().orElseThrow().id();
        // The commit may have made two snapshots (its data, then a compaction): both hold these rows.
        for (long s = model.latestId + 1; s <= id; s++) {
            model.snapshots.put(s, state);
        }
        model.latestId = id;
        return id;
    }

    /** Rolls back to a random tag or retained snapshot older than the latest; returns the target id. */
    private static long rollback(FileStoreTable table, Random random, Model model) {
        List<Long> retained = retainedSnapshots(table);
        long target;
        if (!model.tags.isEmpty() && random.nextBoolean()) {
            String name = new ArrayList<>(model.tags.keySet()).get(random.nextInt(model.tags.size()));
            target = model.tags.get(name);
            TableRollback.of(table).toTag(name);
        } else {
            target = retained.get(random.nextInt(retained.size()));
            TableRollback.of(table).toSnapshot(target);
        }
        model.snapshots.keySet().removeIf(id -> id > target);
        model.tags.values().removeIf(id -> id > target);
        model.latestId = target;
        return target;
    }

    private static List<Long> retainedSnapshots(FileStoreTable table) {
        try {
            SnapshotManager snapshots = table.snapshotManager();
            List<Long> out = new ArrayList<>();
            Long earliest = snapshots.earliestSnapshotId();
            Long latest = snapshots.latestSnapshotId();
            if (earliest != null) {
                for (long id = earliest; id <= latest; id++) {
                    if (snapshots.snapshotExists(id)) {
                        out.add(id);
                    }
                }
            }
            return out;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void checkEverythingReads(FileStoreTable table, Model model, String when) throws Exception {
        List<Long> retained = retainedSnapshots(table);
        assertThat(retained).as("snapshots on disk " + when).isNotEmpty().contains(model.latestId);
        for (long id : retained) {
            assertThat(TestTables.readAll(table.copy(Map.of("scan.snapshot-id", Long.toString(id)))))
                    .as("snapshot %d %s", id, when).isEqualTo(show(model.snapshots.get(id)));
        }
        assertThat(TableTags.of(table).list()).as("tags " + when).hasSize(model.tags.size());
        for (Map.Entry<String, Long> tag : model.tags.entrySet()) {
            assertThat(TestTables.readAll(table.copy(Map.of("scan.tag-name", tag.getKey()))))
                    .as("tag %s (snapshot %d) %s", tag.getKey(), tag.getValue(), when)
                    .isEqualTo(show(model.snapshots.get(tag.getValue())));
        }
    }

    private static List<String> show(Map<Integer, String> rows) {
        List<InternalRow> out = new ArrayList<>();
        rows.forEach((k, v) -> out.add(GenericRow.of(k, BinaryString.fromString(v))));
        return TestTables.show(out);
    }

    /** The rows of every snapshot ever committed (and not rolled back), and the tags. */
    private static final class Model {
        final Map<Long, Map<Integer, String>> snapshots = new HashMap<>();
        final Map<String, Long> tags = new TreeMap<>();
        long latestId;

        Map<Integer, String> latest() {
            return snapshots.getOrDefault(latestId, Map.of());
        }
    }

    /**
     * A streaming read with a consumer id: starts with the full latest snapshot, then reads snapshot
     * after snapshot, recording its consumer progress after each catch-up, which protects what it has
     * not read yet from expiration.
     */
    private static final class Reader {
        private final StreamTableScan scan;
        private final TableRead read;
        private final Map<Integer, String> rows = new TreeMap<>();

        Reader(FileStoreTable table) {
            ReadBuilder rb = table.copy(Map.of("consumer-id", CONSUMER, "scan.mode", "latest-full"))
                    .newReadBuilder();
            this.scan = rb.newStreamScan();
            this.read = rb.newRead();
        }

        void catchUp(Model model) throws Exception {
            Long reached = null;
            while (true) {
                TableScan.Plan plan = scan.plan();
                if (plan.snapshotId() == null) {
                    break;
                }
                reached = plan.snapshotId();
                for (DataSplit split : plan.splits()) {
                    read.createReader(split).forEachRemaining(r -> {
                        int key = r.intAt(0);
                        if (r.rowKind() == RowKind.INSERT || r.rowKind() == RowKind.UPDATE_AFTER) {
                            rows.put(key, r.stringAt(1).toString());
                        } else {
                            rows.remove(key);
                        }
                    });
                }
            }
            if (scan.checkpoint() != null) {
                scan.recordConsumerProgress(scan.checkpoint());
            }
            if (reached != null) {
                assertThat(rows).as("the reader at snapshot %d", reached).isEqualTo(model.snapshots.get(reached));
            }
        }
    }
}
