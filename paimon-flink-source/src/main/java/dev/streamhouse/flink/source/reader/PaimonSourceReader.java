package dev.streamhouse.flink.source.reader;

import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.split.PaimonSplitState;
import dev.streamhouse.storage.data.InternalRow;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.table.data.RowData;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The source reader of one parallel source task. Storage I/O runs in one fetcher thread
 * ({@link PaimonSplitReader}); the task thread emits the rows and keeps each split's progress, which
 * is what {@link #snapshotState} checkpoints.
 *
 * <p>Splits are pulled one at a time: the reader asks the enumerator for a split when it starts with
 * none and again whenever a split is finished, until it is told there are no more. So faster readers
 * take more splits.
 */
public final class PaimonSourceReader
        extends SingleThreadMultiplexSourceReaderBase<InternalRow, RowData, PaimonSplit, PaimonSplitState> {
    private boolean noMoreSplits;

    public PaimonSourceReader(SourceReaderContext context,
            Supplier<SplitReader<InternalRow, PaimonSplit>> splitReaderSupplier, RecordLimiter limiter) {
        super(splitReaderSupplier, new PaimonRecordEmitter(limiter), context.getConfiguration(), context);
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
        if (!noMoreSplits) {
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
