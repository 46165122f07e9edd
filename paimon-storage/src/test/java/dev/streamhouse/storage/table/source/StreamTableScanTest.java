package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;

import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.StreamFixture.Planned;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.streamhouse.storage.table.source.StreamFixture.drain;
import static dev.streamhouse.storage.table.source.StreamFixture.pk;
import static dev.streamhouse.storage.table.source.StreamFixture.plan;
import static dev.streamhouse.storage.table.source.StreamFixture.rows;
import static dev.streamhouse.storage.table.source.StreamFixture.sorted;
import static dev.streamhouse.storage.testutils.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Where {@link StreamTableScan} starts per {@code scan.mode}, how it waits, checkpoints, resumes and expires. */
class StreamTableScanTest {
    @TempDir
    java.nio.file.Path tmp;

    private StreamFixture fx;
    private FileStoreTable table;

    @BeforeEach
    void createAppendTable() throws Exception {
        fx = new StreamFixture(tmp);
        table = fx.appendTable();
    }

    /** Three snapshots with one row each: id i in snapshot i. */
    private void threeSnapshots() throws Exception {
        for (int i = 1; i <= 3; i++) {
            fx.commit(table, row(i, "r" + i, "a"));
        }
    }

    private static String ins(int id) {
        return "+I(" + id + ", r" + id + ", a)";
    }

    private FileStoreTable with(String... options) {
        Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i < options.length; i += 2) {
            m.put(options[i], options[i + 1]);
        }
        return table.copy(m);
    }

    private static Planned next(StreamTableScan scan, ReadBuilder rb) throws Exception {
        return plan(scan, rb);
    }

    private static void assertNothingNew(StreamTableScan scan, ReadBuilder rb) throws Exception {
        Long before = scan.checkpoint();
        Planned p = plan(scan, rb);
        assertThat(p.snapshotId()).as("no next snapshot yet").isNull();
        assertThat(p.splits()).isEmpty();
        if (before != null) {
            assertThat(scan.checkpoint()).as("nothing consumed").isEqualTo(before);
        }
    }

    @Test
    void defaultModeReadsTheLatestSnapshotInFullThenEachLaterSnapshotsChanges() throws Exception {
        threeSnapshots();
        ReadBuilder rb = table.newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        assertThat(scan.checkpoint()).as("not started").isNull();

        Planned full = next(scan, rb);
        assertThat(full.snapshotId()).isEqualTo(3);
        assertThat(full.splits()).isNotEmpty().noneMatch(DataSplit::delta);
        assertThat(sorted(full.rows())).containsExactly(ins(1), ins(2), ins(3));
        assertThat(scan.checkpoint()).isEqualTo(4);
        assertNothingNew(scan, rb);

        fx.commit(table, row(4, "r4", "a"), row(5, "r5", "b"));
        Planned delta = next(scan, rb);
        assertThat(delta.snapshotId()).isEqualTo(4);
        assertThat(delta.splits()).hasSize(2).allMatch(DataSplit::delta).allMatch(s -> s.snapshotId() == 4);
        assertThat(sorted(delta.rows())).containsExactly(ins(4), "+I(5, r5, b)");
        assertNothingNew(scan, rb);
    }

    @Test
    void latestFullAndItsAliasFullWaitForTheFirstSnapshotOfAnEmptyTable() throws Exception {
        List<StreamTableScan> scans = new ArrayList<>();
        List<ReadBuilder> builders = new ArrayList<>();
        for (String mode : List.of("latest-full", "full")) {
            ReadBuilder rb = with("scan.mode", mode).newReadBuilder();
            StreamTableScan scan = rb.newStreamScan();
            Planned empty = next(scan, rb);
            assertThat(empty.snapshotId()).isNull();
            assertThat(scan.checkpoint()).as("start not decided yet").isNull();
            scans.add(scan);
            builders.add(rb);
        }
        fx.commit(table, row(1, "r1", "a"));
        for (int i = 0; i < scans.size(); i++) {
            String mode = i == 0 ? "latest-full" : "full";
            StreamTableScan scan = scans.get(i);
            ReadBuilder rb = builders.get(i);
            Planned first = next(scan, rb);
            assertThat(first.snapshotId()).as(mode).isEqualTo(1);
            assertThat(first.splits()).noneMatch(DataSplit::delta);
            assertThat(first.rows()).containsExactly(ins(1));
            assertThat(scan.checkpoint()).isEqualTo(2);
        }
    }

    @Test
    void latestReadsOnlyWhatIsCommittedAfterTheStart() throws Exception {
        threeSnapshots();
        ReadBuilder rb = with("scan.mode", "latest").newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        assertNothingNew(scan, rb);
        assertThat(scan.checkpoint()).isEqualTo(4);
        fx.commit(table, row(4, "r4", "a"));
        assertThat(drain(scan, rb)).singleElement().satisfies(p -> {
            assertThat(p.snapshotId()).isEqualTo(4);
            assertThat(p.rows()).containsExactly(ins(4));
        });
    }

    @Test
    void latestOnAnEmptyTableReadsTheFirstSnapshotAsChanges() throws Exception {
        ReadBuilder rb = with("scan.mode", "latest").newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        assertNothingNew(scan, rb);
        fx.commit(table, row(1, "r1", "a"));
        List<Planned> plans = drain(scan, rb);
        assertThat(plans).singleElement().satisfies(p -> assertThat(p.splits()).allMatch(DataSplit::delta));
        assertThat(rows(plans)).containsExactly(ins(1));
    }

    @Test
    void fromSnapshotReadsTheChangesOfThatSnapshotAndLaterOnes() throws Exception {
        threeSnapshots();
        for (FileStoreTable t : List.of(with("scan.mode", "from-snapshot", "scan.snapshot-id", "2"),
                with("scan.snapshot-id", "2"))) {
            ReadBuilder rb = t.newReadBuilder();
            List<Planned> plans = drain(rb.newStreamScan(), rb);
            assertThat(plans).extracting(Planned::snapshotId).containsExactly(2L, 3L);
            assertThat(plans).allSatisfy(p -> assertThat(p.splits()).allMatch(DataSplit::delta));
            assertThat(rows(plans)).containsExactly(ins(2), ins(3));
        }
    }

    @Test
    void withSnapshotOnTheBuilderChoosesTheStartOfFromSnapshot() throws Exception {
        threeSnapshots();
        ReadBuilder rb = with("scan.mode", "from-snapshot").newReadBuilder().withSnapshot(3);
        assertThat(rows(drain(rb.newStreamScan(), rb))).containsExactly(ins(3));
    }

    @Test
    void fromAFutureSnapshotWaitsForItAndSkipsTheSnapshotsBefore() throws Exception {
        threeSnapshots();
        ReadBuilder rb = with("scan.mode", "from-snapshot", "scan.snapshot-id", "5").newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        assertNothingNew(scan, rb);
        assertThat(scan.checkpoint()).isEqualTo(5);
        fx.commit(table, row(4, "r4", "a"));
        assertNothingNew(scan, rb);
        fx.commit(table, row(5, "r5", "a"));
        assertThat(rows(drain(scan, rb))).containsExactly(ins(5));
    }

    @Test
    void fromSnapshotFullReadsThatSnapshotInFullThenTheLaterChanges() throws Exception {
        threeSnapshots();
        ReadBuilder rb = with("scan.mode", "from-snapshot-full", "scan.snapshot-id", "2").newReadBuilder();
        List<Planned> plans = drain(rb.newStreamScan(), rb);
        assertThat(plans).extracting(Planned::snapshotId).containsExactly(2L, 3L);
        assertThat(plans.get(0).splits()).noneMatch(DataSplit::delta);
        assertThat(sorted(plans.get(0).rows())).containsExactly(ins(1), ins(2));
        assertThat(plans.get(1).splits()).allMatch(DataSplit::delta);
        assertThat(plans.get(1).rows()).containsExactly(ins(3));
    }

    @Test
    void fromSnapshotFullWaitsWhileTheSnapshotLiesInTheFuture() throws Exception {
        threeSnapshots();
        ReadBuilder rb = with("scan.mode", "from-snapshot-full", "scan.snapshot-id", "4").newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        assertNothingNew(scan, rb);
        assertThat(scan.checkpoint()).isNull();
        fx.commit(table, row(4, "r4", "a"));
        Planned full = next(scan, rb);
        assertThat(full.snapshotId()).isEqualTo(4);
        assertThat(sorted(full.rows())).containsExactly(ins(1), ins(2), ins(3), ins(4));
        assertThat(scan.checkpoint()).isEqualTo(5);
    }

    private static void waitForClockPast(long millis) throws InterruptedException {
        while (System.currentTimeMillis() <= millis) {
            Thread.sleep(1);
        }
    }

    @Test
    void fromTimestampReadsTheSnapshotsCommittedAtOrAfterIt() throws Exception {
        for (int i = 1; i <= 3; i++) {
            fx.commit(table, row(i, "r" + i, "a"));
            waitForClockPast(table.latestSnapshot().orElseThrow().timeMillis());
        }
        long t2 = table.snapshotManager().snapshot(2).timeMillis();
        for (FileStoreTable t : List.of(
                with("scan.mode", "from-timestamp", "scan.timestamp-millis", String.valueOf(t2)),
                with("scan.timestamp-millis", String.valueOf(t2)))) {
            ReadBuilder rb = t.newReadBuilder();
            List<Planned> plans = drain(rb.newStreamScan(), rb);
            assertThat(plans).extracting(Planned::snapshotId).containsExactly(2L, 3L);
            assertThat(rows(plans)).containsExactly(ins(2), ins(3));
        }
        // Before every snapshot: all of them. After every snapshot: only what comes later.
        ReadBuilder all = with("scan.mode", "from-timestamp", "scan.timestamp-millis", "0").newReadBuilder();
        assertThat(rows(drain(all.newStreamScan(), all))).containsExactly(ins(1), ins(2), ins(3));
        long now = System.currentTimeMillis();
        ReadBuilder later = with("scan.mode", "from-timestamp", "scan.timestamp-millis", String.valueOf(now))
                .newReadBuilder();
        StreamTableScan scan = later.newStreamScan();
        assertNothingNew(scan, later);
        assertThat(scan.checkpoint()).isEqualTo(4);
        waitForClockPast(now);
        fx.commit(table, row(4, "r4", "a"));
        assertThat(rows(drain(scan, later))).containsExactly(ins(4));
    }

    @Test
    void fromTimestampOnAnEmptyTableReadsFromTheFirstSnapshot() throws Exception {
        ReadBuilder rb = with("scan.mode", "from-timestamp", "scan.timestamp-millis", "0").newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        assertNothingNew(scan, rb);
        fx.commit(table, row(1, "r1", "a"));
        assertThat(rows(drain(scan, rb))).containsExactly(ins(1));
    }

    @Test
    void compactedFullStartsAtTheLatestCompactionThenReadsLaterChanges() throws Exception {
        FileStoreTable pkTable = fx.pkTable("bucket", "1");
        fx.commit(pkTable, pk(1, 10, "a"), pk(2, 20, "a"));
        fx.commit(pkTable, pk(RowKind.UPDATE_AFTER, 1, 11, "a"));

        // No compaction yet: the latest snapshot.
        FileStoreTable compactedFull = pkTable.copy(Map.of("scan.mode", "compacted-full"));
        ReadBuilder beforeRb = compactedFull.newReadBuilder();
        Planned before = next(beforeRb.newStreamScan(), beforeRb);
        assertThat(before.snapshotId()).isEqualTo(2);

        long compacted = fx.compactAll(pkTable);
        fx.commit(pkTable, pk(RowKind.DELETE, 2, 20, "a"), pk(3, 30, "a"));
        compactedFull = pkTable.copy(Map.of("scan.mode", "compacted-full"));
        ReadBuilder rb = compactedFull.newReadBuilder();
        List<Planned> plans = drain(rb.newStreamScan(), rb);
        assertThat(plans).extracting(Planned::snapshotId).containsExactly(compacted, compacted + 1);
        assertThat(plans.get(0).splits()).noneMatch(DataSplit::delta);
        assertThat(sorted(plans.get(0).rows())).containsExactly("+I(2, 20, a)", "+U(1, 11, a)");
        assertThat(plans.get(1).rows()).containsExactly("-D(2, 20, a)", "+I(3, 30, a)");
    }

    /**
     * The full snapshot a streaming read starts with plans the levels Apache Paimon 1.3's first
     * streaming plan does: with the lookup producer the files above level 0 (keys still on level 0 come
     * with the changelog of their compaction, so they are not read twice), with full-compaction only
     * the last level, without a producer every level merged.
     */
    @Test
    void firstPlansOfCompactionProducersSkipTheLevelsTheirChangelogStillCovers() throws Exception {
        for (String producer : List.of("lookup", "full-compaction", "none")) {
            FileStoreTable pkTable = fx.pkTable("bucket", "1", "changelog-producer", producer);
            fx.commit(pkTable, pk(1, 10, "a"), pk(2, 20, "a"));
            // Level-0 files on top: their keys are not compacted yet (a write-only writer never compacts,
            // not even the full compaction of the full-compaction producer, as in Paimon).
            fx.commit(pkTable.copy(Map.of("write-only", "true")),
                    pk(RowKind.UPDATE_AFTER, 1, 11, "a"), pk(3, 30, "a"));
            assertThat(pkTable.newFileStoreScan().plan().files()).extracting(e -> e.file().level()).as(producer)
                    .contains(0);

            ReadBuilder rb = pkTable.newReadBuilder();
            StreamTableScan scan = rb.newStreamScan();
            Planned full = next(scan, rb);
            List<Integer> levels = new ArrayList<>();
            full.splits().forEach(s -> s.files().forEach(f -> levels.add(f.level())));
            if (producer.equals("none")) {
                assertThat(levels).as(producer).contains(0);
                assertThat(sorted(full.rows())).as(producer).containsExactly("+I(2, 20, a)", "+I(3, 30, a)",
                        "+U(1, 11, a)");
                continue;
            }
            assertThat(levels).as(producer).isNotEmpty().allSatisfy(l -> assertThat(l).isPositive());
            if (producer.equals("full-compaction")) {
                assertThat(levels).as(producer + ": the last of the 6 levels").containsOnly(5);
            }
            assertThat(sorted(full.rows())).as(producer).containsExactly("+I(1, 10, a)", "+I(2, 20, a)");
            assertNothingNew(scan, rb);

            // The compaction of the level-0 keys brings them with its changelog, once.
            fx.compactAll(pkTable);
            assertThat(rows(drain(scan, rb))).as(producer).containsExactly("-U(1, 10, a)", "+U(1, 11, a)",
                    "+I(3, 30, a)");
        }
    }

    @Test
    void compactedFullWaitsForTheFirstSnapshot() throws Exception {
        ReadBuilder rb = with("scan.mode", "compacted-full").newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        assertNothingNew(scan, rb);
        assertThat(scan.checkpoint()).isNull();
        fx.commit(table, row(1, "r1", "a"));
        Planned first = next(scan, rb);
        assertThat(first.snapshotId()).isEqualTo(1);
        assertThat(first.splits()).noneMatch(DataSplit::delta);
    }

    @Test
    void modesWithoutTheirRequiredOptionFailNamingModeAndOption() {
        assertThatThrownBy(() -> with("scan.mode", "from-snapshot").newReadBuilder().newStreamScan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot stream-read table default.test with 'scan.mode' = 'from-snapshot': option "
                        + "'scan.snapshot-id' is not set");
        assertThatThrownBy(() -> with("scan.mode", "from-snapshot-full").newReadBuilder().newStreamScan())
                .hasMessageContaining("'scan.mode' = 'from-snapshot-full'").hasMessageContaining("'scan.snapshot-id'");
        assertThatThrownBy(() -> with("scan.mode", "from-timestamp").newReadBuilder().newStreamScan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'scan.mode' = 'from-timestamp'").hasMessageContaining("'scan.timestamp-millis'");
        assertThatThrownBy(() -> with("scan.snapshot-id", "1", "scan.timestamp-millis", "5").newReadBuilder())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("option 'scan.snapshot-id' cannot be combined with 'scan.mode' = 'default'");
        assertThatThrownBy(() -> with("scan.mode", "from-snapshot", "scan.snapshot-id", "0").newReadBuilder()
                .newStreamScan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("snapshot ids start at 1").hasMessageContaining("'scan.snapshot-id'");
        assertThatThrownBy(() -> with("scan.mode", "earliest").newReadBuilder().newStreamScan())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scan.mode")
                .hasMessageContaining("earliest");
        assertThatThrownBy(() -> with("incremental-between", "1,2").newReadBuilder().newStreamScan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("option 'incremental-between': it is for batch reads");
    }

    @Test
    void restoreIntoAFreshScanResumesWithoutLossOrDuplicates() throws Exception {
        Random random = new Random(7);
        List<String> expected = new ArrayList<>();
        int nextId = 1;
        for (int s = 0; s < 3; s++) {
            expected.add(ins(nextId));
            fx.commit(table, row(nextId, "r" + nextId, "a"));
            nextId++;
        }
        ReadBuilder rb = table.newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        List<String> seen = new ArrayList<>(next(scan, rb).rows());
        // Alternate commits and reads; at random points checkpoint, read on (work that a failure loses),
        // then restore the checkpoint into a fresh scan and drop what was read after it.
        for (int round = 0; round < 30; round++) {
            int commits = random.nextInt(3);
            for (int c = 0; c < commits; c++) {
                expected.add(ins(nextId));
                fx.commit(table, row(nextId, "r" + nextId, "a"));
                nextId++;
            }
            Long checkpoint = scan.checkpoint();
            int sizeAtCheckpoint = seen.size();
            for (int p = random.nextInt(3); p > 0; p--) {
                seen.addAll(next(scan, rb).rows());
            }
            if (random.nextBoolean()) {
                seen.subList(sizeAtCheckpoint, seen.size()).clear();
                rb = table.newReadBuilder();
                scan = rb.newStreamScan();
                scan.restore(checkpoint);
                assertThat(scan.checkpoint()).isEqualTo(checkpoint);
            }
        }
        seen.addAll(rows(drain(scan, rb)));
        assertThat(sorted(seen)).isEqualTo(sorted(expected));
        assertThat(seen).doesNotHaveDuplicates();
    }

    @Test
    void restoreOverridesTheModeAndTheConsumerAndNullStartsAfresh() throws Exception {
        threeSnapshots();
        ReadBuilder rb = table.newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        scan.restore(2L);
        List<Planned> plans = drain(scan, rb);
        assertThat(plans).extracting(Planned::snapshotId).containsExactly(2L, 3L);
        assertThat(plans).allSatisfy(p -> assertThat(p.splits()).allMatch(DataSplit::delta));

        scan.restore(null);
        assertThat(scan.checkpoint()).isNull();
        Planned full = next(scan, rb);
        assertThat(full.snapshotId()).isEqualTo(3);
        assertThat(full.splits()).noneMatch(DataSplit::delta);

        assertThatThrownBy(() -> rb.newStreamScan().restore(0L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table default.test").hasMessageContaining("snapshot 0");
    }

    @Test
    void aScanThatFallsBehindExpirationFailsWithExpiredSnapshotException() throws Exception {
        for (int i = 1; i <= 5; i++) {
            fx.commit(table, row(i, "r" + i, "a"));
        }
        ReadBuilder rb = with("scan.mode", "from-snapshot", "scan.snapshot-id", "1").newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        assertThat(next(scan, rb).rows()).containsExactly(ins(1));

        StreamFixture.expireBefore(table, 4);
        assertThatThrownBy(() -> scan.plan())
                .isInstanceOfSatisfying(ExpiredSnapshotException.class, e -> assertThat(e.snapshotId()).isEqualTo(2))
                .hasMessageContaining("Cannot read snapshot 2 of table default.test: it has expired (the earliest "
                        + "one still retained is 4)")
                .hasMessageContaining("consumer-id");
        assertThat(scan.checkpoint()).as("nothing consumed").isEqualTo(2);

        // A fresh scan restored to an expired snapshot, and a full start at one, fail the same way.
        StreamTableScan restored = table.newReadBuilder().newStreamScan();
        restored.restore(3L);
        assertThatThrownBy(restored::plan).isInstanceOf(ExpiredSnapshotException.class);
        ReadBuilder fullRb = with("scan.mode", "from-snapshot-full", "scan.snapshot-id", "2").newReadBuilder();
        assertThatThrownBy(() -> fullRb.newStreamScan().plan()).isInstanceOf(ExpiredSnapshotException.class)
                .hasMessageContaining("snapshot 2");

        // Retained snapshots still read.
        StreamTableScan fromEarliest = table.newReadBuilder().newStreamScan();
        fromEarliest.restore(4L);
        assertThat(rows(drain(fromEarliest, rb))).containsExactly(ins(4), ins(5));
    }

    @Test
    void fromTimestampBeforeTheEarliestRetainedSnapshotStartsAtIt() throws Exception {
        for (int i = 1; i <= 4; i++) {
            fx.commit(table, row(i, "r" + i, "a"));
        }
        StreamFixture.expireBefore(table, 3);
        ReadBuilder rb = with("scan.mode", "from-timestamp", "scan.timestamp-millis", "0").newReadBuilder();
        assertThat(rows(drain(rb.newStreamScan(), rb))).containsExactly(ins(3), ins(4));
        assertThat(TestTables.readAll(table)).hasSize(4);
    }
}
