package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.split.PaimonSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The enumerator of a bounded read: it obtains its splits once at start (a plan of one snapshot, or
 * the unassigned splits of a restored checkpoint) and hands them to readers as they ask, one split per
 * request. A reader that asks when nothing is left for it is told there are no more splits; a
 * bounded read ends when every reader was told so and has finished its splits.
 *
 * <p>Failures: splits of a failed reader that were assigned after the last completed checkpoint (in a
 * batch job without checkpoints: all its splits) come back through {@link #addSplitsBack} and are
 * handed out again; the others come back with the reader's own state, including how far it got.
 *
 * <p>All methods run in the source coordinator thread.
 */
public final class StaticSplitEnumerator implements SplitEnumerator<PaimonSplit, PaimonEnumeratorState> {
    private static final Logger LOG = LoggerFactory.getLogger(StaticSplitEnumerator.class);

    private final SplitEnumeratorContext<PaimonSplit> context;
    private final SplitAssigner assigner;
    private final Supplier<? extends Collection<PaimonSplit>> initialSplits;

    /**
     * @param assigner decides which reader gets which split; starts empty
     * @param initialSplits called once, in {@link #start()}: plans the read or returns restored splits
     */
    public StaticSplitEnumerator(SplitEnumeratorContext<PaimonSplit> context, SplitAssigner assigner,
            Supplier<? extends Collection<PaimonSplit>> initialSplits) {
        this.context = context;
        this.assigner = assigner;
        this.initialSplits = initialSplits;
    }

    @Override
    public void start() {
        Collection<PaimonSplit> splits = initialSplits.get();
        assigner.addSplits(splits);
        LOG.info("Static Paimon source enumerator starts with {} splits", splits.size());
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        if (!context.registeredReaders().containsKey(subtaskId)) {
            // The reader failed after asking; its restarted attempt asks again.
            return;
        }
        Optional<PaimonSplit> split = assigner.next(subtaskId);
        if (split.isPresent()) {
            LOG.debug("Assigning {} to reader {}", split.get(), subtaskId);
            context.assignSplit(split.get(), subtaskId);
        } else {
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public void addSplitsBack(List<PaimonSplit> splits, int subtaskId) {
        LOG.info("Reader {} failed; {} of its splits go back to the unassigned ones", subtaskId, splits.size());
        assigner.addSplits(splits);
    }

    @Override
    public void addReader(int subtaskId) {
        // Readers pull: each asks for a split when it starts and after each finished split.
    }

    @Override
    public PaimonEnumeratorState snapshotState(long checkpointId) {
        return new PaimonEnumeratorState(assigner.remainingSplits());
    }

    @Override
    public void close() {
    }
}
