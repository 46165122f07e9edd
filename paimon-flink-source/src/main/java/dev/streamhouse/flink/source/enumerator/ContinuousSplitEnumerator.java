package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.event.PendingChanges;
import dev.streamhouse.flink.source.event.ReaderProgressEvent;
import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.TableScan;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The enumerator of an unbounded read. It owns a {@link StreamTableScan} and plans it in discovery
 * rounds, which run in Flink's enumerator worker thread ({@code callAsync}); the coordinator thread
 * starts them, at most one at a time. A round plans snapshot after snapshot until there is no next
 * one or at least {@code maxUnassignedSplits} splits wait unassigned (a snapshot is planned whole).
 *
 * <p><b>When a round starts.</b> A round that stopped at that bound leaves snapshots waiting: the
 * next round starts as soon as readers took enough splits that fewer than the bound wait, at once,
 * without waiting for the timer. So a read that starts far behind ({@code from-snapshot},
 * {@code from-timestamp}, a consumer resuming after downtime) plans as fast as its readers read.
 * Only after a round that found no next snapshot (or failed) does the enumerator wait: every
 * discovery interval a timer starts a round, unless one runs or the bound is reached.
 *
 * <p><b>Back pressure.</b> No round starts while {@code maxUnassignedSplits} or more splits wait
 * unassigned, and a round stops planning once they do; since a snapshot is not cut, at most the bound
 * minus one plus one snapshot's splits wait (more only when a failed reader gives splits back).
 * Readers of an unbounded read ask for splits only once they have read all they hold, so slow
 * readers stop the planning instead of piling up splits in their state.
 *
 * <p><b>Order.</b> Every split of one (partition, bucket) goes to the same reader
 * ({@link BucketAffinitySplitAssigner}), in snapshot order: rounds run one after another, each on the
 * scan where the previous one stopped, and their splits are queued in that order. A reader reads its
 * splits one after another in the order it got them, so the changes of each key are emitted in
 * commit order.
 *
 * <p><b>Assignment.</b> Readers ask for splits (when they start with none and after reading all
 * theirs); an asking reader gets every split queued for it, now or as soon as some is planned.
 * Splits of readers that are not registered (late or restarting) wait. A failed reader's splits
 * assigned after the last checkpoint come back through {@link #addSplitsBack} and are queued before
 * that reader's other splits.
 *
 * <p><b>State.</b> The unassigned splits and the next snapshot to plan. Both are updated together in
 * the coordinator thread when a round ends, so a checkpoint never covers planned splits that it does
 * not hold: a checkpoint taken while a round runs holds the state before the round, and a job
 * restored from it plans that round's snapshots again.
 *
 * <p><b>Consumer.</b> With a {@link ProgressWriter} (option {@code consumer-id}), each completed
 * checkpoint records the next snapshot a job restored from it would need first
 * ({@link ConsumerProgressTracker}); readers report their part with {@link ReaderProgressEvent}s.
 *
 * <p><b>Errors.</b> A snapshot that expired before it was read fails the job with the
 * {@link ExpiredSnapshotException}'s message; I/O errors while planning are logged and the round is
 * retried at the next interval; writing consumer progress is retried at the next checkpoint.
 *
 * <p>All methods except the planning itself run in the source coordinator thread.
 */
public final class ContinuousSplitEnumerator implements SplitEnumerator<PaimonSplit, PaimonEnumeratorState> {
    private static final Logger LOG = LoggerFactory.getLogger(ContinuousSplitEnumerator.class);

    /** Records a consumer's next snapshot (e.g. a {@code ConsumerManager} for one consumer id). */
    @FunctionalInterface
    public interface ProgressWriter {
        void write(long nextSnapshotId) throws IOException;
    }

    private final SplitEnumeratorContext<PaimonSplit> context;
    private final StreamTableScan scan;
    private final String tableName;
    private final long discoveryIntervalMillis;
    private final int maxUnassignedSplits;
    private final ProgressWriter progressWriter;
    private final BucketAffinitySplitAssigner assigner;
    private final Set<Integer> readersAwaitingSplits = new LinkedHashSet<>();
    private final ConsumerProgressTracker progress = new ConsumerProgressTracker();
    private final boolean restored;

    /** The next snapshot to plan, as of the splits in the assigner. */
    private Long nextSnapshotId;
    private Long lastWrittenProgress;
    /** Whether a round was started and has not ended yet (its handler did not run). */
    private boolean roundRunning;
    /** Whether the last round ended at the bound, so that more snapshots may wait to be planned. */
    private boolean snapshotsMayWait;

    /**
     * @param scan the read's scan; planned only in the discovery rounds
     * @param restoredState the checkpoint to resume from, or null for a fresh read
     * @param maxUnassignedSplits no discovery round starts while this many splits are unassigned, and a
     *     round stops planning once they are
     * @param progressWriter records consumer progress; null without a consumer id
     */
    public ContinuousSplitEnumerator(SplitEnumeratorContext<PaimonSplit> context, StreamTableScan scan,
            PaimonEnumeratorState restoredState, long discoveryIntervalMillis, int maxUnassignedSplits,
            ProgressWriter progressWriter, String tableName) {
        if (discoveryIntervalMillis <= 0) {
            throw new IllegalArgumentException("Cannot stream-read table " + tableName + ": the discovery interval "
                    + "must be positive, got " + discoveryIntervalMillis + " ms; fix option 'continuous.discovery-interval'");
        }
        if (maxUnassignedSplits < 1) {
            throw new IllegalArgumentException("Cannot stream-read table " + tableName + ": at least one unassigned "
                    + "split must be allowed, got " + maxUnassignedSplits + "; fix option 'scan.max-splits-per-task'");
        }
        this.context = context;
        this.scan = scan;
        this.tableName = tableName;
        this.discoveryIntervalMillis = discoveryIntervalMillis;
        this.maxUnassignedSplits = maxUnassignedSplits;
        this.progressWriter = progressWriter;
        this.assigner = new BucketAffinitySplitAssigner(context.currentParallelism());
        this.restored = restoredState != null;
        if (restoredState != null) {
            assigner.addSplits(restoredState.unassignedSplits());
            nextSnapshotId = restoredState.nextSnapshotId();
        }
    }

    @Override
    public void start() {
        if (restored) {
            scan.restore(nextSnapshotId);
        }
        LOG.info("Streaming read of table {} starts {}; once caught up it looks for new snapshots every {} ms", tableName,
                restored ? "from a checkpoint at snapshot " + nextSnapshotId + " with " + assigner.size()
                        + " unassigned splits" : "afresh", discoveryIntervalMillis);
        // The timer only wakes the coordinator thread; rounds run through startRound().
        context.callAsync(() -> null, (ignored, error) -> startRound(), 0, discoveryIntervalMillis);
    }

    /**
     * What one discovery round planned.
     *
     * @param reachedBound whether planning stopped because the budget was used up (rather than for
     *     want of a next snapshot or because a plan failed)
     */
    private record Discovery(List<PaimonSplit> splits, Long nextSnapshotId, boolean reachedBound) {}

    /** Starts a round unless one runs or the bound is reached; in the coordinator thread. */
    private void startRound() {
        int budget = maxUnassignedSplits - assigner.size();
        if (roundRunning || budget <= 0) {
            return;
        }
        roundRunning = true;
        context.callAsync(() -> discover(budget), this::onDiscovered);
    }

    /** Runs in the worker thread: plans snapshots until none is left or {@code budget} splits are planned. */
    private Discovery discover(int budget) {
        List<PaimonSplit> splits = new ArrayList<>();
        Long startedAt = scan.checkpoint();
        while (splits.size() < budget) {
            TableScan.Plan plan;
            try {
                plan = scan.plan();
            } catch (RuntimeException e) {
                if (splits.isEmpty() && Objects.equals(startedAt, scan.checkpoint())) {
                    throw e;
                }
                // Earlier plans of this round advanced the scan: hand their splits over, or they are
                // lost. The failed plan consumed nothing; the next round tries it again.
                LOG.warn("Cannot plan snapshot {} of table {}; keeping the {} splits planned before it: {}",
                        scan.checkpoint(), tableName, splits.size(), e.getMessage());
                break;
            }
            if (plan.snapshotId() == null) {
                break;
            }
            int i = 0;
            for (DataSplit split : plan.splits()) {
                // Unique within the read: each snapshot is planned once, fully or as changes.
                String id = (split.delta() ? "d" : "f") + plan.snapshotId() + "-" + i++;
                splits.add(PaimonSplit.fresh(id, split));
            }
        }
        // Also when nothing was planned: the first plan may have decided the starting point.
        return new Discovery(splits, scan.checkpoint(), splits.size() >= budget);
    }

    /** Runs in the coordinator thread, in the order the rounds ran. */
    private void onDiscovered(Discovery discovery, Throwable error) {
        roundRunning = false;
        if (error != null) {
            snapshotsMayWait = false;
            if (error instanceof ExpiredSnapshotException) {
                throw new FlinkRuntimeException("Cannot continue the streaming read of table " + tableName + ": "
                        + error.getMessage(), error);
            }
            if (error instanceof UncheckedIOException) {
                LOG.warn("Cannot look for new snapshots of table {} (retrying in {} ms): {}", tableName,
                        discoveryIntervalMillis, error.getMessage(), error);
                return;
            }
            throw new FlinkRuntimeException("Cannot plan the streaming read of table " + tableName + ": " + error,
                    error);
        }
        assigner.addSplits(discovery.splits());
        snapshotsMayWait = discovery.reachedBound();
        if (discovery.nextSnapshotId() != null) {
            nextSnapshotId = discovery.nextSnapshotId();
        }
        if (!discovery.splits().isEmpty()) {
            LOG.debug("Planned {} splits of table {}; next snapshot {}", discovery.splits().size(), tableName,
                    nextSnapshotId);
        }
        assignWaitingReaders();
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        readersAwaitingSplits.add(subtaskId);
        assignWaitingReaders();
    }

    @Override
    public void addReader(int subtaskId) {
        assignWaitingReaders();
    }

    @Override
    public void addSplitsBack(List<PaimonSplit> splits, int subtaskId) {
        LOG.info("Reader {} of table {} failed; {} of its splits are queued again", subtaskId, tableName,
                splits.size());
        assigner.addSplitsBack(splits);
        assignWaitingReaders();
    }

    /**
     * Gives every registered reader that asked all splits queued for it; then, while snapshots may
     * wait, starts the next round if the readers took enough.
     */
    private void assignWaitingReaders() {
        Map<Integer, ?> registered = context.registeredReaders();
        Iterator<Integer> it = readersAwaitingSplits.iterator();
        while (it.hasNext()) {
            int subtask = it.next();
            if (!registered.containsKey(subtask)) {
                continue; // asks again when it (re)starts; its splits wait
            }
            List<PaimonSplit> batch = new ArrayList<>();
            for (Optional<PaimonSplit> s = assigner.next(subtask); s.isPresent(); s = assigner.next(subtask)) {
                batch.add(s.get());
            }
            if (!batch.isEmpty()) {
                context.assignSplits(new SplitsAssignment<>(Map.of(subtask, batch)));
                it.remove();
            }
        }
        if (snapshotsMayWait) {
            startRound();
        }
    }

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        if (sourceEvent instanceof ReaderProgressEvent) {
            ReaderProgressEvent event = (ReaderProgressEvent) sourceEvent;
            progress.readerCheckpoint(event.checkpointId(), subtaskId, event.pending());
        } else {
            LOG.warn("Ignoring unknown event {} from reader {} of table {}", sourceEvent, subtaskId, tableName);
        }
    }

    @Override
    public PaimonEnumeratorState snapshotState(long checkpointId) {
        List<PaimonSplit> unassigned = assigner.remainingSplits();
        if (progressWriter != null) {
            List<DataSplit> dataSplits = new ArrayList<>(unassigned.size());
            unassigned.forEach(s -> dataSplits.add(s.dataSplit()));
            progress.enumeratorCheckpoint(checkpointId, PendingChanges.of(dataSplits), nextSnapshotId);
        }
        return new PaimonEnumeratorState(unassigned, nextSnapshotId);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        if (progressWriter == null) {
            return;
        }
        OptionalLong next = progress.checkpointComplete(checkpointId, context.currentParallelism());
        if (next.isEmpty() || Long.valueOf(next.getAsLong()).equals(lastWrittenProgress)) {
            return;
        }
        try {
            progressWriter.write(next.getAsLong());
            lastWrittenProgress = next.getAsLong();
        } catch (IOException e) {
            LOG.warn("Cannot record the consumer progress (next snapshot {}) of table {} at checkpoint {}; "
                    + "retrying at the next checkpoint: {}", next.getAsLong(), tableName, checkpointId,
                    e.getMessage(), e);
        }
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
        progress.checkpointAborted(checkpointId);
    }

    /** The unassigned splits (for tests and metrics). */
    int unassignedSplitCount() {
        return assigner.size();
    }

    @Override
    public void close() {
        // The scan holds no resources; the worker thread is Flink's.
    }
}
