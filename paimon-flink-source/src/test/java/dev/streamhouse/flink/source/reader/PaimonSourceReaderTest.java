package dev.streamhouse.flink.source.reader;

import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.testutils.Splits;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the source reader asks for splits. The splits are read by a split reader that finishes each
 * split at once without rows, so only the requests matter.
 */
class PaimonSourceReaderTest {

    /** Counts split requests; events to the coordinator are dropped. */
    private static final class CountingContext implements SourceReaderContext {
        final AtomicInteger splitRequests = new AtomicInteger();

        @Override
        public SourceReaderMetricGroup metricGroup() {
            return UnregisteredMetricsGroup.createSourceReaderMetricGroup();
        }

        @Override
        public Configuration getConfiguration() {
            return new Configuration();
        }

        @Override
        public String getLocalHostName() {
            return "localhost";
        }

        @Override
        public int getIndexOfSubtask() {
            return 0;
        }

        @Override
        public void sendSplitRequest() {
            splitRequests.incrementAndGet();
        }

        @Override
        public void sendSourceEventToCoordinator(SourceEvent sourceEvent) {
        }

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            return SimpleUserCodeClassLoader.create(getClass().getClassLoader());
        }
    }

    /** Reports each split finished, one per fetch, in the order added. */
    private static final class FinishingSplitReader implements SplitReader<RowChunk, PaimonSplit> {
        private final ArrayDeque<PaimonSplit> splits = new ArrayDeque<>();

        @Override
        public RecordsWithSplitIds<RowChunk> fetch() {
            RecordsBySplits.Builder<RowChunk> out = new RecordsBySplits.Builder<>();
            PaimonSplit split = splits.poll();
            if (split != null) {
                out.addFinishedSplit(split.splitId());
            }
            return out.build();
        }

        @Override
        public void handleSplitsChanges(SplitsChange<PaimonSplit> change) {
            if (change instanceof SplitsAddition) {
                splits.addAll(change.splits());
            }
        }

        @Override
        public void wakeUp() {
        }

        @Override
        public void close() {
        }
    }

    /** Takes no rows (there are none). */
    private static final class NoRowsOutput implements ReaderOutput<RowData> {
        @Override
        public void collect(RowData record) {
            throw new AssertionError("no rows expected");
        }

        @Override
        public void collect(RowData record, long timestamp) {
            throw new AssertionError("no rows expected");
        }

        @Override
        public void emitWatermark(Watermark watermark) {
        }

        @Override
        public void markIdle() {
        }

        @Override
        public void markActive() {
        }

        @Override
        public SourceOutput<RowData> createOutputForSplit(String splitId) {
            return this;
        }

        @Override
        public void releaseOutputForSplit(String splitId) {
        }
    }

    /** Polls until the reader holds no split, waiting on its availability while it holds some. */
    private static void readAll(PaimonSourceReader reader) throws Exception {
        ReaderOutput<RowData> output = new NoRowsOutput();
        for (int guard = 0; reader.getNumberOfCurrentlyAssignedSplits() > 0; guard++) {
            assertThat(guard).as("polls").isLessThan(10_000);
            // Wait only while the reader still holds splits: the poll that finishes the last split
            // also says NOTHING_AVAILABLE, and then nothing more arrives to complete the future.
            if (reader.pollNext(output) == InputStatus.NOTHING_AVAILABLE
                    && reader.getNumberOfCurrentlyAssignedSplits() > 0) {
                // A guard against a hang, not a timing assertion.
                reader.isAvailable().get(60, TimeUnit.SECONDS);
            }
        }
    }

    private static int requestsAfterReadingThreeSplits(boolean unbounded) throws Exception {
        CountingContext context = new CountingContext();
        PaimonSourceReader reader = new PaimonSourceReader(context, FinishingSplitReader::new,
                RecordLimiter.unlimited(), unbounded);
        try {
            reader.start();
            assertThat(context.splitRequests).as("a reader without splits asks at start").hasValue(1);
            reader.addSplits(List.of(Splits.empty("a"), Splits.empty("b"), Splits.empty("c")));
            readAll(reader);
            return context.splitRequests.get();
        } finally {
            reader.close();
        }
    }

    @Test
    void anUnboundedReaderAsksAgainOnlyAfterReadingAllItsSplits() throws Exception {
        assertThat(requestsAfterReadingThreeSplits(true)).as("at start, then once all three were read").isEqualTo(2);
    }

    @Test
    void aBoundedReaderAsksAfterEachSplit() throws Exception {
        assertThat(requestsAfterReadingThreeSplits(false)).as("at start, then after each split").isEqualTo(4);
    }
}
