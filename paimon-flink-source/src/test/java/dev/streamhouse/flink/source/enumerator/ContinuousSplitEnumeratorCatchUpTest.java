package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.testutils.RecordingEnumeratorContext;
import dev.streamhouse.flink.source.testutils.ScriptedStreamScan;
import dev.streamhouse.flink.source.testutils.Splits;
import dev.streamhouse.storage.table.source.DataSplit;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streaming read that starts behind many snapshots: the enumerator plans round after round as
 * readers take splits, without waiting for its timer, and waits for the timer only when there is
 * nothing new. The readers' requests are made by hand and the enumerator's calls run only when the
 * test runs them ({@link RecordingEnumeratorContext}), so everything here is deterministic.
 */
class ContinuousSplitEnumeratorCatchUpTest {
    private static final String TABLE = "default.t";
    private static final int BOUND = 8;
    private static final int SPLITS_PER_SNAPSHOT = 4;
    /** What may wait unassigned: no round starts at the bound, and a snapshot is planned whole. */
    private static final int MOST_UNASSIGNED = BOUND - 1 + SPLITS_PER_SNAPSHOT;

    /** Every snapshot changes buckets 0..3. */
    private static List<DataSplit> fourBuckets(long snapshot) {
        return IntStream.range(0, SPLITS_PER_SNAPSHOT).mapToObj(b -> Splits.delta(snapshot, b)).toList();
    }

    private static RecordingEnumeratorContext readers(int parallelism) {
        RecordingEnumeratorContext context = new RecordingEnumeratorContext(parallelism);
        for (int i = 0; i < parallelism; i++) {
            context.registerReader(i);
        }
        return context;
    }

    /** Discovery interval 10 s, as by default: the timer fires only when the test fires it. */
    private static ContinuousSplitEnumerator enumerator(RecordingEnumeratorContext context, ScriptedStreamScan scan,
            PaimonEnumeratorState restored) {
        return new ContinuousSplitEnumerator(context, scan, restored, 10_000, BOUND, null, TABLE);
    }

    private static List<String> describe(List<PaimonSplit> splits) {
        return splits.stream().map(s -> s.dataSplit().snapshotId() + "/b" + s.dataSplit().bucket()).toList();
    }

    @Test
    void keepsPlanningWithoutTheTimerWhileSnapshotsWait() {
        RecordingEnumeratorContext context = readers(2);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorCatchUpTest::fourBuckets);
        scan.commitUpTo(100);
        ContinuousSplitEnumerator e = enumerator(context, scan, null);
        e.start();
        context.fireTimer(); // the only time the timer fires in this test
        assertThat(context.queuedCalls()).as("the timer starts a round").isEqualTo(1);
        context.runQueuedCalls();
        assertThat(e.unassignedSplitCount()).as("the first round stops at the bound").isEqualTo(BOUND);
        assertThat(e.snapshotState(1).nextSnapshotId()).isEqualTo(3);

        // Readers that read what they got and ask again: each time they take their splits, the
        // enumerator plans the next snapshots at once.
        for (int turn = 0; context.assignedTo(0).size() + context.assignedTo(1).size() < 100 * SPLITS_PER_SNAPSHOT;
                turn++) {
            assertThat(turn).as("turns of the readers").isLessThan(1000);
            e.handleSplitRequest(0, "localhost");
            e.handleSplitRequest(1, "localhost");
            assertThat(context.runQueuedCalls()).as("rounds started by the readers taking splits").isPositive();
            assertThat(e.unassignedSplitCount()).isLessThanOrEqualTo(MOST_UNASSIGNED);
        }
        assertThat(context.timerFirings()).isEqualTo(1);
        assertThat(context.queuedCallsRun()).as("rounds").isGreaterThanOrEqualTo(100 * SPLITS_PER_SNAPSHOT / BOUND);

        // Every split exactly once, each bucket on one reader in snapshot order.
        List<String> all = new ArrayList<>(describe(context.assignedTo(0)));
        all.addAll(describe(context.assignedTo(1)));
        assertThat(all).hasSize(100 * SPLITS_PER_SNAPSHOT).doesNotHaveDuplicates();
        for (int reader = 0; reader < 2; reader++) {
            Map<Integer, Long> lastOfBucket = new HashMap<>();
            for (PaimonSplit s : context.assignedTo(reader)) {
                assertThat(BucketAffinitySplitAssigner.owner(s.dataSplit(), 2)).isEqualTo(reader);
                Long last = lastOfBucket.put(s.dataSplit().bucket(), s.dataSplit().snapshotId());
                assertThat(last == null ? 0 : last).isEqualTo(s.dataSplit().snapshotId() - 1);
            }
        }
        assertThat(e.snapshotState(2).nextSnapshotId()).isEqualTo(101);
    }

    @Test
    void waitsForTheTimerWhenNothingIsNew() {
        RecordingEnumeratorContext context = readers(1);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorCatchUpTest::fourBuckets);
        scan.commitUpTo(3);
        ContinuousSplitEnumerator e = enumerator(context, scan, null);
        e.start();
        context.runPeriodicCall(); // snapshots 1 and 2: at the bound
        e.handleSplitRequest(0, "localhost");
        assertThat(context.queuedCalls()).as("catching up: the next round starts at once").isEqualTo(1);
        context.fireTimer();
        assertThat(context.queuedCalls()).as("the timer starts no second round while one runs").isEqualTo(1);
        context.runQueuedCalls(); // snapshot 3, then no next one
        assertThat(e.unassignedSplitCount()).isEqualTo(4);

        e.handleSplitRequest(0, "localhost");
        assertThat(describe(context.assignedTo(0))).hasSize(12).endsWith("3/b0", "3/b1", "3/b2", "3/b3");
        assertThat(context.queuedCalls()).as("caught up: no round until the timer fires").isZero();

        int plans = scan.plans();
        scan.commitUpTo(5);
        e.handleSplitRequest(0, "localhost");
        assertThat(context.queuedCalls()).as("a reader asking does not start a round when caught up").isZero();
        assertThat(scan.plans()).isEqualTo(plans);
        assertThat(context.assignedTo(0)).hasSize(12);

        context.fireTimer();
        assertThat(context.queuedCalls()).isEqualTo(1);
        context.runQueuedCalls(); // snapshots 4 and 5 go to the waiting reader
        assertThat(describe(context.assignedTo(0))).hasSize(20).endsWith("5/b0", "5/b1", "5/b2", "5/b3");
        assertThat(e.snapshotState(1).nextSnapshotId()).isEqualTo(6);
    }

    @Test
    void aReaderThatDoesNotAskStopsThePlanning() {
        RecordingEnumeratorContext context = readers(2);
        ScriptedStreamScan scan = new ScriptedStreamScan(ContinuousSplitEnumeratorCatchUpTest::fourBuckets);
        scan.commitUpTo(100);
        ContinuousSplitEnumerator e = enumerator(context, scan, null);
        e.start();
        context.runPeriodicCall();
        // Reader 0 keeps reading; reader 1 never asks, so its splits pile up unassigned.
        for (int turn = 0; turn < 20; turn++) {
            e.handleSplitRequest(0, "localhost");
            context.runQueuedCalls();
            assertThat(e.unassignedSplitCount()).isLessThanOrEqualTo(MOST_UNASSIGNED);
        }
        assertThat(context.assignedTo(1)).isEmpty();
        assertThat(e.unassignedSplitCount()).as("all of reader 1's").isGreaterThanOrEqualTo(BOUND);
        int plans = scan.plans();
        e.handleSplitRequest(0, "localhost");
        context.runPeriodicCall();
        assertThat(scan.plans()).as("no planning while the bound is reached").isEqualTo(plans);
        assertThat(e.snapshotState(1).nextSnapshotId()).as("snapshots still wait").isLessThan(100);

        int waiting = e.unassignedSplitCount();
        e.handleSplitRequest(1, "localhost");
        assertThat(context.assignedTo(1)).hasSize(waiting);
        assertThat(context.queuedCalls()).as("reader 1 took its splits: planning goes on").isEqualTo(1);
        context.runQueuedCalls();
        assertThat(scan.plans()).isGreaterThan(plans);
    }

    @Test
    void aCheckpointTakenWhileARoundRunsHoldsTheStateBeforeIt() throws Exception {
        RecordingEnumeratorContext context = readers(1);
        ScriptedStreamScan scan = new ScriptedStreamScan(s -> List.of(Splits.delta(s, 0)));
        scan.commitUpTo(20);
        ContinuousSplitEnumerator e = enumerator(context, scan, null);
        e.start();
        context.runPeriodicCall(); // snapshots 1..8
        e.handleSplitRequest(0, "localhost"); // takes them; the next round is queued, not run
        PaimonEnumeratorState during = e.snapshotState(1);
        assertThat(during.unassignedSplits()).isEmpty();
        assertThat(during.nextSnapshotId()).isEqualTo(9);
        context.runQueuedCalls(); // plans 9..16 in the failed job

        // Restored from that checkpoint: snapshot 9 onwards is planned again, nothing lost or repeated.
        RecordingEnumeratorContext context2 = readers(1);
        ScriptedStreamScan scan2 = new ScriptedStreamScan(s -> List.of(Splits.delta(s, 0)));
        scan2.commitUpTo(20);
        ContinuousSplitEnumerator e2 = enumerator(context2, scan2, during);
        e2.start();
        assertThat(scan2.restores()).containsExactly(9L);
        e2.handleSplitRequest(0, "localhost");
        assertThat(context2.queuedCalls()).as("nothing to assign: the restored read waits for its first round").isZero();
        context2.runPeriodicCall(); // 9..16, assigned to the waiting reader; 17..20 planned at once
        e2.handleSplitRequest(0, "localhost");
        context2.runQueuedCalls();
        List<String> expected = IntStream.rangeClosed(9, 20).mapToObj(s -> s + "/b0").toList();
        assertThat(describe(context2.assignedTo(0))).containsExactlyElementsOf(expected);
    }
}
