package dev.streamhouse.flink.cdc.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkRange;
import dev.streamhouse.flink.cdc.mysql.snapshot.TestTables;
import dev.streamhouse.flink.cdc.source.split.MySqlChunkSplit;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkAssignerTest {

    private static final CapturedTable A = TestTables.keyValue("a");
    private static final CapturedTable B = TestTables.keyValue("b");
    private static final BinlogPosition P1 = new BinlogPosition("b.000001", 100);
    private static final BinlogPosition P2 = new BinlogPosition("b.000001", 200);

    private static List<ChunkRange> twoRanges() {
        return List.of(new ChunkRange(null, new Object[] {10L}), new ChunkRange(new Object[] {10L}, null));
    }

    @Test
    void tablesAreSplitInOrderAndChunksAssignedUntilAllAreEmitted() {
        ChunkAssigner assigner = new ChunkAssigner(List.of(A, B));
        assertThat(assigner.nextTableToSplit()).isEqualTo(A);
        assigner.tableSplit(A.id(), twoRanges());
        assertThat(assigner.nextTableToSplit()).isEqualTo(B);
        MySqlChunkSplit a0 = assigner.assign(0);
        MySqlChunkSplit a1 = assigner.assign(1);
        assertThat(assigner.assign(0)).isNull();
        assertThat(assigner.inFlight(0)).isEqualTo(1);
        assigner.tableSplit(B.id(), List.of(ChunkRange.all()));
        MySqlChunkSplit b0 = assigner.assign(0);
        assertThat(assigner.allFinished()).isFalse();
        assertThat(assigner.emitted(a0.splitId(), P1)).isTrue();
        assertThat(assigner.emitted(a1.splitId(), P2)).isTrue();
        assertThat(assigner.isDone(A.id())).isTrue();
        assertThat(assigner.tablesDone()).isEqualTo(1);
        assertThat(assigner.emitted(b0.splitId(), P1)).isTrue();
        assertThat(assigner.allFinished()).isTrue();
        assertThat(assigner.window().lowestHighWatermark()).isEqualTo(P1);
        assertThat(assigner.window().highestHighWatermark()).isEqualTo(P2);
        assertThat(assigner.emitted("`db`.`zzz`#0", P1)).as("unknown chunk").isFalse();
    }

    @Test
    void chunksHandedBackOrHeldUnreadAreReadAgainEvenIfReportedEmitted() {
        ChunkAssigner assigner = new ChunkAssigner(List.of(A));
        assigner.tableSplit(A.id(), twoRanges());
        MySqlChunkSplit a0 = assigner.assign(0);
        MySqlChunkSplit a1 = assigner.assign(0);
        assigner.emitted(a0.splitId(), P1);
        assigner.emitted(a1.splitId(), P1);
        long generation = assigner.generation();
        assertThat(assigner.allFinished()).isTrue();
        assertThat(assigner.isDone(A.id())).isTrue();
        assigner.handedBack(List.of(a0));
        assertThat(assigner.generation()).isGreaterThan(generation);
        assertThat(assigner.allFinished()).isFalse();
        assertThat(assigner.isDone(A.id())).isFalse();
        MySqlChunkSplit again = assigner.assign(1);
        assertThat(again.splitId()).isEqualTo(a0.splitId());
        assertThat(again.isEmitted()).isFalse();
        assigner.emitted(again.splitId(), P2);
        assertThat(assigner.held(0, a1.splitId())).isTrue();
        assertThat(assigner.allFinished()).isFalse();
        assertThat(assigner.inFlight(0)).isEqualTo(1);
        assertThat(assigner.isDone(A.id())).isFalse();
        assigner.emitted(a1.splitId(), P2);
        assertThat(assigner.allFinished()).isTrue();
        assertThat(assigner.tablesDone()).isEqualTo(1);
        assertThat(assigner.window().lowestHighWatermark()).as("the later reports count").isEqualTo(P2);
    }

    @Test
    void theStateRestoresEverySet() {
        ChunkAssigner assigner = new ChunkAssigner(List.of(A, B));
        assigner.tableSplit(A.id(), twoRanges());
        MySqlChunkSplit a0 = assigner.assign(3);
        assigner.assign(2);
        assigner.emitted(a0.splitId(), P1);
        ChunkAssignmentState state = assigner.snapshot();
        ChunkAssigner restored = new ChunkAssigner(state);
        assertThat(restored.snapshot()).isEqualTo(state);
        assertThat(restored.inFlight(2)).isEqualTo(1);
        assertThat(restored.nextTableToSplit()).isEqualTo(B);
        assertThat(restored.chunksFinished()).isEqualTo(1);
        assertThat(restored.isDone(A.id())).isFalse();
        assertThat(restored.chunksKnown()).isEqualTo(2);
    }
}
