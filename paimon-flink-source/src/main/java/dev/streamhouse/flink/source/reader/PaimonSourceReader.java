package dev.streamhouse.flink.source.reader;

import dev.streamhouse.flink.source.event.PendingChanges;
import dev.streamhouse.flink.source.event.ReaderProgressEvent;
import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.split.PaimonSplitState;
import dev.streamhouse.storage.table.source.DataSplit;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The source reader of one parallel source task. Storage I/O runs in one fetcher thread
 * ({@link PaimonSplitReader}); the task thread emits the rows and keeps each split's progress, which
 * is what {@link #snapshotState} checkpoints.
 *
 * <p>Splits are pulled: the reader asks the enumerator for splits when it starts with none and again
 * whenever a split is finished, until it is told there are no more. So faster readers take more
 * splits (bounded reads, one split per request).
 *
 * <p>In an unbounded read the enumerator answers a request with every split queued for the reader,
 * so the reader asks again only once it has finished all splits it holds: asking after each split
 * would take new splits faster than they are read and move the enumerator's back pressure (a bound
 * on unassigned splits) into an ever longer queue here. It also reports, with each checkpoint, what
 * its unfinished splits may still hold ({@link ReaderProgressEvent}), for the consumer progress the
 * enumerator records.
 */
public final class PaimonSourceReader
        extends SingleThreadMultiplexSourceReaderBase<RowChunk, RowData, PaimonSplit, PaimonSplitState> {
    private final boolean unbounded;
    private boolean noMoreSplits;

    /** A reader of a bounded read. */
    public PaimonSourceReader(SourceReaderContext context,
            Supplier<SplitReader<RowChunk, PaimonSplit>> splitReaderSupplier, RecordLimiter limiter) {
        this(context, splitReaderSupplier, limiter, false);
    }

    /**
     * @param unbounded whether this reads an unbounded read's splits: then it sends a
     *     {@link ReaderProgressEvent} with each checkpoint and asks for splits only when it holds none
     */
    public PaimonSourceReader(SourceReaderContext context,
            Supplier<SplitReader<RowChunk, PaimonSplit>> splitReaderSupplier, RecordLimiter limiter,
            boolean unbounded) {
        super(splitReaderSupplier, new PaimonRecordEmitter(limiter), context.getConfiguration(), context);
        this.unbounded = unbounded;
    }

    @Override
    public List<PaimonSplit> snapshotState(long checkpointId) {
        List<PaimonSplit> splits = super.snapshotState(checkpointId);
        if (unbounded) {
            List<DataSplit> dataSplits = new ArrayList<>(splits.size());
            splits.forEach(s -> dataSplits.add(s.dataSplit()));
            context.sendSourceEventToCoordinator(new ReaderProgressEvent(checkpointId, PendingChanges.of(dataSplits)));
        }
        return splits;
    }

    @Override
    public void start() {
        super.start();
        // Splits restored from a checkpoint were added before start(); read those first.
        if (getNumberOfCurrentlyAssignedSplits() == 0) {
            context.sendSplitRequest();
        }
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        super.notifyNoMoreSplits();
    }

    @Override
    protected void onSplitFinished(Map<String, PaimonSplitState> finishedSplits) {
        // Finished splits are already removed from the assigned ones.
        if (!noMoreSplits && (!unbounded || getNumberOfCurrentlyAssignedSplits() == 0)) {
            context.sendSplitRequest();
        }
    }

    @Override
    protected PaimonSplitState initializedState(PaimonSplit split) {
        return new PaimonSplitState(split);
    }

    @Override
    protected PaimonSplit toSplitType(String splitId, PaimonSplitState splitState) {
        return splitState.toSplit();
    }
}
