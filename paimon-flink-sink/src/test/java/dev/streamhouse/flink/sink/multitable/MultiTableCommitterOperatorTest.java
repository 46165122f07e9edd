package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.flink.sink.compat.HarnessCheckpointing;
import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.flink.sink.committable.CommittableTypeInfo;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.streamhouse.flink.sink.testutils.SinkTables.messages;
import static dev.streamhouse.flink.sink.testutils.SinkTables.snapshots;
import static dev.streamhouse.flink.sink.testutils.SinkTables.storageRow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The multi-table committer through checkpoints and restores, in Flink's operator test harness. */
class MultiTableCommitterOperatorTest {
    private static final String USER = "multi-committer-test";
    private static final String ORDERS = "db.orders";
    private static final String ITEMS = "db.items";

    @TempDir
    java.nio.file.Path tmp;

    private Map<String, String> catalogOptions;
    private Catalog catalog;

    @BeforeEach
    void createTables() {
        catalogOptions = Map.of("warehouse", tmp.toUri().toString());
        catalog = CatalogFactory.createCatalog(new Options(catalogOptions));
        catalog.createDatabase("db", false);
        catalog.createTable(Identifier.fromString(ORDERS), schema(false), false);
        catalog.createTable(Identifier.fromString(ITEMS), schema(true), false);
    }

    @AfterEach
    void closeCatalog() throws Exception {
        catalog.close();
    }

    private static Schema schema(boolean primaryKey) {
        Schema.Builder b = Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("v", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING()).partitionKeys("dt");
        if (primaryKey) {
            b.primaryKey("id", "dt").option("bucket", "1");
        }
        return b.build();
    }

    private FileStoreTable table(String name) {
        return (FileStoreTable) catalog.getTable(Identifier.fromString(name));
    }

    private List<CommitMessage> rows(String table, int from, int to) throws Exception {
        List<InternalRow> rows = new ArrayList<>();
        for (int i = from; i < to; i++) {
            rows.add(storageRow(i, i, "d" + (i % 2)));
        }
        return messages(table(table), rows.toArray(new InternalRow[0]));
    }

    private static Committable of(long checkpoint, String table, List<CommitMessage> messages) {
        return Committable.ofCheckpoint(checkpoint, messages).forTable(table);
    }

    private OneInputStreamOperatorTestHarness<Committable, Void> harness(String user, boolean checkpointing)
            throws Exception {
        OneInputStreamOperatorTestHarness<Committable, Void> h = new OneInputStreamOperatorTestHarness<>(
                new MultiTableCommitterOperator(catalogOptions, user),
                CommittableTypeInfo.INSTANCE.createSerializer(new SerializerConfigImpl()));
        HarnessCheckpointing.set(h, checkpointing);
        return h;
    }

    private List<Long> identifiers(String table) {
        return snapshots(table(table)).stream().map(Snapshot::commitIdentifier).toList();
    }

    @Test
    void commitsEachCheckpointOfEachTableOnceWhenItCompletes() throws Exception {
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, true)) {
            h.open();
            h.processElement(of(1, ORDERS, rows(ORDERS, 0, 10)), 0);
            h.processElement(of(1, ITEMS, rows(ITEMS, 0, 5)), 0);
            h.snapshot(1, 1);
            assertThat(snapshots(table(ORDERS))).as("nothing before the checkpoint completes").isEmpty();
            h.processElement(of(2, ORDERS, rows(ORDERS, 10, 20)), 0);
            h.snapshot(2, 2);
            h.processElement(of(3, ITEMS, rows(ITEMS, 5, 8)), 0);
            // Checkpoint 1's notification was lost; 2's completes both, in order; 3 is not yet complete.
            h.notifyOfCompletedCheckpoint(2);
            assertThat(identifiers(ORDERS)).containsExactly(1L, 2L);
            assertThat(identifiers(ITEMS)).containsExactly(1L);
            assertThat(snapshots(table(ORDERS))).allMatch(s -> s.commitUser().equals(USER));
            assertThat(snapshots(table(ITEMS))).allMatch(s -> s.commitUser().equals(USER));
            assertThat(TestTables.readAll(table(ORDERS))).hasSize(20);
            assertThat(TestTables.readAll(table(ITEMS))).hasSize(5);
            h.notifyOfCompletedCheckpoint(2);
            assertThat(identifiers(ORDERS)).containsExactly(1L, 2L);
            assertThat(identifiers(ITEMS)).containsExactly(1L);
        }
    }

    /**
     * The job fails after the committer committed checkpoint 1 to one table but before the other (and
     * before checkpoint 2): the restore commits exactly what is missing, with the restored commit user,
     * and a second restore from the same checkpoint commits nothing.
     */
    @Test
    void restoreCommitsOnlyWhatIsMissingExactlyOnce() throws Exception {
        List<CommitMessage> orders1 = rows(ORDERS, 0, 10);
        OperatorSubtaskState state;
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, true)) {
            h.open();
            h.processElement(of(1, ORDERS, orders1), 0);
            h.processElement(of(1, ITEMS, rows(ITEMS, 0, 5)), 0);
            h.processElement(of(1, ITEMS, rows(ITEMS, 5, 7)), 0);
            h.snapshot(1, 1);
            h.processElement(of(2, ORDERS, rows(ORDERS, 10, 15)), 0);
            state = h.snapshot(2, 2);
        }
        // What the failed committer got done: checkpoint 1 of orders only.
        try (var commit = table(ORDERS).newStreamCommit(USER)) {
            commit.commit(1, orders1);
        }

        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness("another-user", true)) {
            h.initializeState(state);
            assertThat(identifiers(ORDERS)).containsExactly(1L, 2L);
            assertThat(identifiers(ITEMS)).containsExactly(1L);
            assertThat(snapshots(table(ITEMS)).get(0).commitUser()).as("the restored commit user").isEqualTo(USER);
            assertThat(snapshots(table(ORDERS)).get(1).commitUser()).isEqualTo(USER);
            h.open();
            h.processElement(of(3, ITEMS, rows(ITEMS, 7, 9)), 0);
            h.snapshot(3, 3);
            h.notifyOfCompletedCheckpoint(3);
        }
        assertThat(identifiers(ITEMS)).containsExactly(1L, 3L);

        // Restored once more from checkpoint 2 (another failure): everything in it is committed already.
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, true)) {
            h.initializeState(state);
            h.open();
        }
        assertThat(identifiers(ORDERS)).containsExactly(1L, 2L);
        assertThat(identifiers(ITEMS)).containsExactly(1L, 3L);
        assertThat(TestTables.readAll(table(ORDERS))).hasSize(15);
        assertThat(TestTables.readAll(table(ITEMS))).hasSize(9);
    }

    @Test
    void restoreSkipsATableThatNoLongerExists() throws Exception {
        OperatorSubtaskState state;
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, true)) {
            h.open();
            h.processElement(of(1, ORDERS, rows(ORDERS, 0, 10)), 0);
            h.processElement(of(1, ITEMS, rows(ITEMS, 0, 5)), 0);
            state = h.snapshot(1, 1);
        }
        catalog.dropTable(Identifier.fromString(ITEMS), false);
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, true)) {
            h.initializeState(state);
            h.open();
        }
        assertThat(identifiers(ORDERS)).containsExactly(1L);
        assertThat(catalog.tableExists(Identifier.fromString(ITEMS))).isFalse();
    }

    @Test
    void withoutCheckpointingEachTableIsCommittedOnceAtEndOfInput() throws Exception {
        List<CommitMessage> items = rows(ITEMS, 0, 5);
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, false)) {
            h.open();
            h.processElement(new org.apache.flink.streaming.runtime.streamrecord.StreamRecord<>(
                    Committable.ofEndOfInput(rows(ORDERS, 0, 10)).forTable(ORDERS)));
            h.processElement(new org.apache.flink.streaming.runtime.streamrecord.StreamRecord<>(
                    Committable.ofEndOfInput(items).forTable(ITEMS)));
            h.endInput();
        }
        assertThat(identifiers(ORDERS)).containsExactly(Snapshot.BATCH_COMMIT_IDENTIFIER);
        assertThat(identifiers(ITEMS)).containsExactly(Snapshot.BATCH_COMMIT_IDENTIFIER);
        // A rerun of the same commit user (e.g. a restarted batch job) does not commit a table twice.
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, false)) {
            h.open();
            h.processElement(new org.apache.flink.streaming.runtime.streamrecord.StreamRecord<>(
                    Committable.ofEndOfInput(items).forTable(ITEMS)));
            h.endInput();
        }
        assertThat(identifiers(ITEMS)).containsExactly(Snapshot.BATCH_COMMIT_IDENTIFIER);
        assertThat(TestTables.readAll(table(ITEMS))).hasSize(5);
    }

    @Test
    void committablesWithoutTableOrAfterTheirCheckpointAreRefused() throws Exception {
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, true)) {
            h.open();
            assertThatThrownBy(() -> h.processElement(Committable.ofCheckpoint(1, List.of()), 0))
                    .hasMessageContaining("must name their table");
            h.snapshot(4, 4);
            assertThatThrownBy(() -> h.processElement(of(3, ORDERS, List.of()), 0))
                    .hasMessageContaining("checkpoint 3 arrived after the committer took checkpoint 4");
        }
    }
    /**
     * A table with watermark tags and an idle timeout asks for a snapshot without changes when a
     * checkpoint brings it no files (its tags need one, as in Paimon's committer); a table without
     * automatic tags never gets an empty snapshot.
     */
    @Test
    void aTableWithoutFilesAtACheckpointGetsTheEmptySnapshotItsAutomaticTagsNeed() throws Exception {
        String tagged = "db.tagged";
        catalog.createTable(Identifier.fromString(tagged), Schema.newBuilder()
                .column("id", DataTypes.INT().notNull()).column("v", DataTypes.BIGINT())
                .column("dt", DataTypes.STRING()).partitionKeys("dt")
                .option("tag.automatic-creation", "watermark").option("snapshot.watermark-idle-timeout", "1 ms")
                .build(), false);
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, true)) {
            h.open();
            h.processWatermark(new org.apache.flink.streaming.api.watermark.Watermark(1_000L));
            h.processElement(of(1, tagged, rows(tagged, 0, 4)), 0);
            h.processElement(of(1, ORDERS, rows(ORDERS, 0, 4)), 0);
            h.snapshot(1, 1);
            h.notifyOfCompletedCheckpoint(1);
            h.processElement(of(2, ORDERS, rows(ORDERS, 4, 8)), 0);
            h.snapshot(2, 2);
            h.notifyOfCompletedCheckpoint(2);
            h.snapshot(3, 3);
            h.notifyOfCompletedCheckpoint(3);
        }
        assertThat(identifiers(tagged)).containsExactly(1L, 2L, 3L);
        List<Snapshot> taggedSnapshots = snapshots(table(tagged));
        assertThat(taggedSnapshots.subList(1, 3)).allSatisfy(s -> {
            assertThat(s.deltaRecordCount()).as("an empty snapshot").isZero();
            assertThat(s.watermark()).isEqualTo(1_000L);
        });
        assertThat(identifiers(ORDERS)).as("no empty snapshots without automatic tags").containsExactly(1L, 2L);
        assertThat(TestTables.readAll(table(tagged))).hasSize(4);
    }

    @Test
    void pendingCheckpointsAtEndOfInputWithoutCheckpointingAreRefused() throws Exception {
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, false)) {
            h.open();
            h.processElement(of(1, ORDERS, rows(ORDERS, 0, 3)), 0);
            h.snapshot(1, 1);
            assertThatThrownBy(h::endInput).hasMessageContaining("Cannot commit to tables [db.orders]")
                    .hasMessageContaining("checkpoints [1] are pending in a job without checkpointing");
        }
        assertThat(snapshots(table(ORDERS))).isEmpty();
    }
}
