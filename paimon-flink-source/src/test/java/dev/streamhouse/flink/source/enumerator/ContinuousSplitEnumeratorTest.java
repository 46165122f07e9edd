package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.event.PendingChanges;
import dev.streamhouse.flink.source.event.ReaderProgressEvent;
import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.split.PaimonSplitSerializer;
import dev.streamhouse.flink.source.testutils.RecordingEnumeratorContext;
import dev.streamhouse.flink.source.testutils.ScriptedStreamScan;
import dev.streamhouse.flink.source.testutils.Splits;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;
import org.apache.flink.util.FlinkRuntimeException;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ContinuousSplitEnumeratorTest {
    private static final String TABLE = "default.t";

    /** Every snapshot changes buckets 0..3. */
    private static List<DataSplit> fourBuckets(long snapshot) {
        return IntStream.range(0, 4).mapToObj(b -> Splits.delta(snapshot, b)).toList();
    }

    private static ContinuousSplitEnumerator enumerator(RecordingEnumeratorContext context, ScriptedStreamScan scan,
            PaimonEnumeratorState restored, int maxUnassigned, ContinuousSplitEnumerator.ProgressWriter writer) {
        return new ContinuousSplitEnumerator(context, scan, restored, 100, maxUnassigned, writer, TABLE);
    }

    private static RecordingEnumeratorContext readers(int parallelism) {
        RecordingEnumeratorContext context = new RecordingEnumeratorContext(parallelism);
        for (int i = 0; i < parallelism; i++) {
            context.registerReader(i);
        }
        return context;
    }

    private static List<String> describe(List<PaimonSplit> splits) {
        return splits.stream().map(s -> s.dataSplit().snapshotId() + "/b" + s.dataSplit().bucket()).toList();
    }

    @Test
    void everySplitOfABucketGoesToOneReaderInSnapshotOrder() {
        RecordingEnumeratorContext context = readers(3);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorTest::fourBuckets);
        ContinuousSplitEnumerator e = enumerator(context, scan, null, 1000, null);
        e.start();
        assertThat(context.periodMillis()).isEqualTo(100);
        for (int i = 0; i < 3; i++) {
            e.handleSplitRequest(i, "localhost");
        }
        scan.commitUpTo(2);
        context.runPeriodicCall();
        scan.commitUpTo(5);
        for (int i = 0; i < 3; i++) {
            e.handleSplitRequest(i, "localhost"); // readers ask again after finishing splits
        }
        context.runPeriodicCall();

        Map<Integer, Integer> ownerOfBucket = new HashMap<>();
        int total = 0;
        for (int reader = 0; reader < 3; reader++) {
            Map<Integer, Long> lastSnapshotOfBucket = new HashMap<>();
            for (PaimonSplit s : context.assignedTo(reader)) {
                int bucket = s.dataSplit().bucket();
                assertThat(ownerOfBucket.putIfAbsent(bucket, reader)).as("owner of bucket " + bucket).isIn(null, reader);
                assertThat(BucketAffinitySplitAssigner.owner(s.dataSplit(), 3)).isEqualTo(reader);
                Long last = lastSnapshotOfBucket.put(bucket, s.dataSplit().snapshotId());
                assertThat(last == null ? 0 : last).as("order of bucket " + bucket).isLessThan(s.dataSplit().snapshotId());
                total++;
            }
        }
        assertThat(total).isEqualTo(5 * 4);
        assertThat(e.unassignedSplitCount()).isZero();
    }

    @Test
    void readersThatRegisterLateGetTheirSplitsWhenTheyAsk() {
        RecordingEnumeratorContext context = new RecordingEnumeratorContext(2);
        context.registerReader(0);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorTest::fourBuckets);
        scan.commitUpTo(1);
        ContinuousSplitEnumerator e = enumerator(context, scan, null, 1000, null);
        e.start();
        e.handleSplitRequest(0, "localhost");
        e.handleSplitRequest(1, "localhost"); // not registered: its request waits
        context.runPeriodicCall();
        assertThat(context.assignedTo(0)).isNotEmpty();
        assertThat(context.assignedTo(1)).isEmpty();
        int waiting = e.unassignedSplitCount();
        assertThat(waiting).isEqualTo(4 - context.assignedTo(0).size()).isPositive();

        context.registerReader(1);
        e.addReader(1);
        assertThat(context.assignedTo(1)).hasSize(waiting);
        assertThat(e.unassignedSplitCount()).isZero();
    }

    @Test
    void splitsOfAFailedReaderComeBackBeforeItsNewerSplits() {
        RecordingEnumeratorContext context = readers(1);
        ScriptedStreamScan scan = new ScriptedStreamScan(s -> List.of(Splits.delta(s, 0)));
        ContinuousSplitEnumerator e = enumerator(context, scan, null, 1000, null);
        e.start();
        e.handleSplitRequest(0, "localhost");
        scan.commitUpTo(2);
        context.runPeriodicCall();
        assertThat(describe(context.assignedTo(0))).containsExactly("1/b0", "2/b0");
        List<PaimonSplit> firstAssignment = new ArrayList<>(context.assignedTo(0));
        scan.commitUpTo(3);
        context.runPeriodicCall(); // snapshot 3 waits: the reader did not ask

        context.unregisterReader(0);
        e.addSplitsBack(firstAssignment, 0);
        e.handleSplitRequest(0, "localhost"); // an old request racing the failure: nothing assigned
        assertThat(context.assignedTo(0)).hasSize(2);
        context.registerReader(0);
        e.addReader(0);
        assertThat(describe(context.assignedTo(0))).containsExactly("1/b0", "2/b0", "1/b0", "2/b0", "3/b0");
    }

    @Test
    void stopsPlanningWhileTooManySplitsAreUnassigned() {
        RecordingEnumeratorContext context = readers(1);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorTest::fourBuckets);
        scan.commitUpTo(10);
        ContinuousSplitEnumerator e = enumerator(context, scan, null, 6, null);
        e.start();
        context.runPeriodicCall();
        // Whole snapshots are planned until at least 6 splits wait: snapshots 1 and 2.
        assertThat(e.unassignedSplitCount()).isEqualTo(8);
        assertThat(e.snapshotState(1).nextSnapshotId()).isEqualTo(3);
        int plans = scan.plans();
        context.runPeriodicCall();
        assertThat(scan.plans()).as("no planning under back pressure").isEqualTo(plans);

        e.handleSplitRequest(0, "localhost");
        assertThat(context.assignedTo(0)).hasSize(8);
        context.runPeriodicCall();
        assertThat(e.unassignedSplitCount()).isEqualTo(8);
        assertThat(e.snapshotState(2).nextSnapshotId()).isEqualTo(5);
    }

    @Test
    void checkpointRoundTripResumesPlanningAndQueuesTheUnassignedSplits() throws Exception {
        RecordingEnumeratorContext context = readers(2);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorTest::fourBuckets);
        scan.commitUpTo(2);
        ContinuousSplitEnumerator e = enumerator(context, scan, null, 1000, null);
        e.start();
        context.runPeriodicCall();
        PaimonEnumeratorState state = e.snapshotState(1);
        assertThat(state.nextSnapshotId()).isEqualTo(3);
        assertThat(state.unassignedSplits()).hasSize(8);

        PaimonEnumeratorStateSerializer serializer = new PaimonEnumeratorStateSerializer(PaimonSplitSerializer.INSTANCE);
        PaimonEnumeratorState restored = serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
        assertThat(restored).isEqualTo(state);

        RecordingEnumeratorContext context2 = readers(2);
        ScriptedStreamScan scan2 = new ScriptedStreamScan(ContinuousSplitEnumeratorTest::fourBuckets);
        scan2.commitUpTo(3);
        ContinuousSplitEnumerator e2 = enumerator(context2, scan2, restored, 1000, null);
        e2.start();
        assertThat(scan2.restores()).containsExactly(3L);
        e2.handleSplitRequest(0, "localhost");
        e2.handleSplitRequest(1, "localhost");
        assertThat(context2.assignedTo(0).size() + context2.assignedTo(1).size()).as("restored splits").isEqualTo(8);
        context2.runPeriodicCall();
        e2.handleSplitRequest(0, "localhost");
        e2.handleSplitRequest(1, "localhost");
        List<String> all = new ArrayList<>(describe(context2.assignedTo(0)));
        all.addAll(describe(context2.assignedTo(1)));
        assertThat(all).hasSize(12).doesNotHaveDuplicates();
        assertThat(e2.snapshotState(2).nextSnapshotId()).isEqualTo(4);
    }

    @Test
    void aStartingPointWithoutSplitsIsCheckpointed() {
        RecordingEnumeratorContext context = readers(1);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorTest::fourBuckets);
        ContinuousSplitEnumerator e = enumerator(context, scan, null, 1000, null);
        e.start();
        assertThat(e.snapshotState(1).nextSnapshotId()).isNull();
        context.runPeriodicCall(); // no snapshot yet, but the scan decided to start at 1
        assertThat(e.snapshotState(2).nextSnapshotId()).isEqualTo(1);
    }

    @Test
    void anExpiredSnapshotFailsTheJobNamingTheTable() {
        RecordingEnumeratorContext context = readers(1);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorTest::fourBuckets);
        ContinuousSplitEnumerator e = enumerator(context, scan, null, 1000, null);
        e.start();
        scan.failNextPlan(new ExpiredSnapshotException(TABLE, 3, 7));
        assertThatThrownBy(context::runPeriodicCall)
                .isInstanceOf(FlinkRuntimeException.class)
                .hasMessageContaining("Cannot continue the streaming read of table " + TABLE)
                .hasMessageContaining("snapshot 3")
                .hasMessageContaining("expired");
    }

    @Test
    void anIoErrorWhilePlanningIsRetriedAtTheNextInterval() {
        RecordingEnumeratorContext context = readers(1);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorTest::fourBuckets);
        scan.commitUpTo(1);
        ContinuousSplitEnumerator e = enumerator(context, scan, null, 1000, null);
        e.start();
        scan.failNextPlan(new UncheckedIOException(new java.io.IOException("disk gone")));
        context.runPeriodicCall();
        assertThat(e.unassignedSplitCount()).isZero();
        context.runPeriodicCall();
        assertThat(e.unassignedSplitCount()).isEqualTo(4);
    }

    @Test
    void aFailedPlanAfterSuccessfulOnesKeepsTheirSplits() {
        RecordingEnumeratorContext context = readers(1);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorTest::fourBuckets);
        scan.failOnceAt(2, new UncheckedIOException(new java.io.IOException("manifest unreadable")));
        scan.commitUpTo(3);
        ContinuousSplitEnumerator e = enumerator(context, scan, null, 1000, null);
        e.start();
        context.runPeriodicCall(); // snapshot 1 planned, snapshot 2 fails
        assertThat(e.unassignedSplitCount()).isEqualTo(4);
        assertThat(e.snapshotState(1).nextSnapshotId()).isEqualTo(2);
        context.runPeriodicCall(); // snapshots 2 and 3
        assertThat(e.unassignedSplitCount()).isEqualTo(12);
        assertThat(e.snapshotState(2).nextSnapshotId()).isEqualTo(4);
    }

    @Test
    void bucketsOfPartitionsSpreadOverReaders() {
        java.util.Set<Integer> owners = new java.util.HashSet<>();
        for (int b = 0; b < 4; b++) {
            owners.add(BucketAffinitySplitAssigner.owner(Splits.delta(1, b), 4));
        }
        assertThat(owners).as("consecutive buckets of one partition on distinct readers").hasSize(4);
        owners.clear();
        for (PaimonSplit s : List.of(Splits.deterministic(), Splits.empty("x"))) {
            owners.add(BucketAffinitySplitAssigner.owner(s.dataSplit(), 1));
        }
        assertThat(owners).containsExactly(0);
    }

    @Test
    void completedCheckpointsRecordTheFirstSnapshotWithChangesNotYetEmitted() {
        RecordingEnumeratorContext context = readers(2);
        ScriptedStreamScan scan = new ScriptedStreamScan(s -> List.of(Splits.delta(s, 0)));
        List<Long> written = new ArrayList<>();
        ContinuousSplitEnumerator e = enumerator(context, scan, null, 1000, written::add);
        e.start();
        scan.commitUpTo(6);
        context.runPeriodicCall(); // snapshots 1..6 unassigned, next 7

        // cp 1: the earliest unassigned split wins over the readers' splits and the next snapshot
        e.snapshotState(1);
        e.handleSourceEvent(0, new ReaderProgressEvent(1, PendingChanges.NONE));
        e.handleSourceEvent(1, new ReaderProgressEvent(1, new PendingChanges(4L, false)));
        e.notifyCheckpointComplete(1);
        assertThat(written).containsExactly(1L);

        // cp 2: everything assigned; a reader still holds the changes of snapshot 5
        e.handleSplitRequest(BucketAffinitySplitAssigner.owner(Splits.delta(1, 0), 2), "localhost");
        assertThat(e.unassignedSplitCount()).isZero();
        e.snapshotState(2);
        e.handleSourceEvent(0, new ReaderProgressEvent(2, new PendingChanges(5L, false)));
        e.handleSourceEvent(1, new ReaderProgressEvent(2, PendingChanges.NONE));
        e.notifyCheckpointComplete(2);
        assertThat(written).containsExactly(1L, 5L);

        // cp 3: a reader did not report: nothing is recorded
        e.snapshotState(3);
        e.handleSourceEvent(0, new ReaderProgressEvent(3, PendingChanges.NONE));
        e.notifyCheckpointComplete(3);
        assertThat(written).containsExactly(1L, 5L);

        // cp 4: a full split is pending: no next snapshot expresses it
        e.snapshotState(4);
        e.handleSourceEvent(0, new ReaderProgressEvent(4, new PendingChanges(null, true)));
        e.handleSourceEvent(1, new ReaderProgressEvent(4, PendingChanges.NONE));
        e.notifyCheckpointComplete(4);
        assertThat(written).containsExactly(1L, 5L);

        // cp 5: nothing pending: the next snapshot to plan
        e.snapshotState(5);
        e.handleSourceEvent(0, new ReaderProgressEvent(5, PendingChanges.NONE));
        e.handleSourceEvent(1, new ReaderProgressEvent(5, PendingChanges.NONE));
        e.notifyCheckpointComplete(5);
        assertThat(written).containsExactly(1L, 5L, 7L);

        // a late report of a completed checkpoint changes nothing; an unchanged value is not rewritten
        e.handleSourceEvent(1, new ReaderProgressEvent(4, new PendingChanges(2L, false)));
        e.snapshotState(6);
        e.handleSourceEvent(0, new ReaderProgressEvent(6, PendingChanges.NONE));
        e.handleSourceEvent(1, new ReaderProgressEvent(6, PendingChanges.NONE));
        e.notifyCheckpointComplete(6);
        assertThat(written).containsExactly(1L, 5L, 7L);
    }

    @Test
    void aFullSplitBlocksProgressUntilItIsRead() {
        RecordingEnumeratorContext context = readers(1);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorTest::fourBuckets).startingFull(3);
        List<Long> written = new ArrayList<>();
        ContinuousSplitEnumerator e = enumerator(context, scan, null, 1000, written::add);
        e.start();
        context.runPeriodicCall(); // full splits of snapshot 3, unassigned; next 4
        e.snapshotState(1);
        e.handleSourceEvent(0, new ReaderProgressEvent(1, PendingChanges.NONE));
        e.notifyCheckpointComplete(1);
        assertThat(written).isEmpty();

        e.handleSplitRequest(0, "localhost");
        assertThat(context.assignedTo(0)).allSatisfy(s -> assertThat(s.dataSplit().delta()).isFalse());
        e.snapshotState(2);
        e.handleSourceEvent(0, new ReaderProgressEvent(2, PendingChanges.of(List.of(context.assignedTo(0).get(0).dataSplit()))));
        e.notifyCheckpointComplete(2);
        assertThat(written).isEmpty();

        e.snapshotState(3);
        e.handleSourceEvent(0, new ReaderProgressEvent(3, PendingChanges.NONE));
        e.notifyCheckpointComplete(3);
        assertThat(written).as("all of snapshot 3 read: the changes of 4 come next").containsExactly(4L);
    }
}
