package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.testutils.RecordingEnumeratorContext;
import dev.streamhouse.flink.source.testutils.Splits;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class StaticSplitEnumeratorTest {
    private final RecordingEnumeratorContext context = new RecordingEnumeratorContext(2);
    private final AtomicInteger plans = new AtomicInteger();

    private StaticSplitEnumerator started(List<PaimonSplit> splits) {
        StaticSplitEnumerator e = new StaticSplitEnumerator(context, new AnyReaderSplitAssigner(), () -> {
            plans.incrementAndGet();
            return splits;
        });
        e.start();
        return e;
    }

    @Test
    void handsOutOneSplitPerRequestThenSignalsNoMoreSplits() {
        StaticSplitEnumerator e = started(List.of(Splits.empty("a"), Splits.empty("b"), Splits.empty("c")));
        context.registerReader(0);
        context.registerReader(1);

        e.handleSplitRequest(0, "localhost");
        e.handleSplitRequest(1, "localhost");
        e.handleSplitRequest(0, "localhost");
        assertThat(context.assignedTo(0)).extracting(PaimonSplit::splitId).containsExactly("a", "c");
        assertThat(context.assignedTo(1)).extracting(PaimonSplit::splitId).containsExactly("b");
        assertThat(context.toldNoMoreSplits(0)).isFalse();

        e.handleSplitRequest(1, "localhost");
        assertThat(context.toldNoMoreSplits(1)).isTrue();
        assertThat(context.toldNoMoreSplits(0)).isFalse();
        assertThat(plans).hasValue(1);
    }

    @Test
    void splitsOfAFailedReaderGoToTheNextReaderThatAsks() {
        StaticSplitEnumerator e = started(List.of(Splits.empty("a"), Splits.empty("b")));
        context.registerReader(0);
        context.registerReader(1);
        e.handleSplitRequest(0, null);
        e.handleSplitRequest(0, null);
        e.handleSplitRequest(1, null);
        assertThat(context.toldNoMoreSplits(1)).isTrue();

        e.addSplitsBack(new ArrayList<>(context.assignedTo(0)), 0);
        assertThat(e.snapshotState(1).unassignedSplits()).extracting(PaimonSplit::splitId).containsExactly("a", "b");
        e.handleSplitRequest(0, null);
        e.handleSplitRequest(0, null);
        assertThat(context.assignedTo(0)).extracting(PaimonSplit::splitId).containsExactly("a", "b", "a", "b");
    }

    @Test
    void checkpointHoldsTheUnassignedSplitsAndRestoringDoesNotPlanAgain() {
        StaticSplitEnumerator e = started(List.of(Splits.empty("a"), Splits.empty("b"), Splits.empty("c")));
        context.registerReader(0);
        e.handleSplitRequest(0, null);
        PaimonEnumeratorState state = e.snapshotState(5);
        assertThat(state.unassignedSplits()).extracting(PaimonSplit::splitId).containsExactly("b", "c");

        RecordingEnumeratorContext restoredContext = new RecordingEnumeratorContext(1);
        StaticSplitEnumerator restored =
                new StaticSplitEnumerator(restoredContext, new AnyReaderSplitAssigner(), state::unassignedSplits);
        restored.start();
        restoredContext.registerReader(0);
        for (int i = 0; i < 3; i++) {
            restored.handleSplitRequest(0, null);
        }
        assertThat(restoredContext.assignedTo(0)).extracting(PaimonSplit::splitId).containsExactly("b", "c");
        assertThat(restoredContext.toldNoMoreSplits(0)).isTrue();
        assertThat(plans).hasValue(1);
    }

    @Test
    void ignoresRequestsOfReadersThatAreGone() {
        StaticSplitEnumerator e = started(List.of(Splits.empty("a")));
        e.handleSplitRequest(0, null);
        assertThat(context.assignedTo(0)).isEmpty();
        assertThat(context.toldNoMoreSplits(0)).isFalse();
        assertThat(e.snapshotState(1).unassignedSplits()).hasSize(1);
    }
}
