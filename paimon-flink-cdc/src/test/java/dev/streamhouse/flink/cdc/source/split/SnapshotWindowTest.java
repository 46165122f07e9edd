package dev.streamhouse.flink.cdc.source.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkRange;
import dev.streamhouse.flink.cdc.mysql.snapshot.TestTables;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnapshotWindowTest {

    static final CapturedTable T = TestTables.keyValue("t");

    static BinlogPosition at(String file, long pos) {
        return new BinlogPosition(file, pos);
    }

    /** t in three chunks: (-inf, 100) as of b.1:500, [100, 200) as of b.2:300, [200, +inf) as of b.1:900. */
    static SnapshotWindow window() {
        return new SnapshotWindow(List.of(T), Map.of(T.id(), List.of(
                new SnapshotWindow.FinishedChunk(new ChunkRange(null, new Object[] {100L}), at("b.000001", 500)),
                new SnapshotWindow.FinishedChunk(new ChunkRange(new Object[] {100L}, new Object[] {200L}),
                        at("b.000002", 300)),
                new SnapshotWindow.FinishedChunk(new ChunkRange(new Object[] {200L}, null), at("b.000001", 900)))));
    }

    private static Object[] row(long id) {
        return new Object[] {id, "v"};
    }

    @Test
    void aChangeIsSkippedWhenItsKeysChunkIsAsOfALaterPosition() {
        SnapshotWindow w = window();
        assertThat(w.lowestHighWatermark()).isEqualTo(at("b.000001", 500));
        assertThat(w.highestHighWatermark()).isEqualTo(at("b.000002", 300));
        assertThat(w.chunks().get(T.id()).get(0).range().lower()).isNull();
        // between 500 and 900 of file 1: only the first chunk is past it
        assertThat(w.reflects(T.id(), row(-7), at("b.000001", 600), null)).isFalse();
        assertThat(w.reflects(T.id(), row(99), at("b.000001", 600), null)).isFalse();
        assertThat(w.reflects(T.id(), row(100), at("b.000001", 600), null)).isTrue();
        assertThat(w.reflects(T.id(), row(250), at("b.000001", 600), null)).isTrue();
        assertThat(w.reflects(T.id(), row(250), at("b.000001", 900), null)).isFalse();
        assertThat(w.reflects(T.id(), row(150), at("b.000002", 299), null)).isTrue();
        assertThat(w.reflects(T.id(), row(150), at("b.000002", 300), null)).isFalse();
        assertThat(w.reflects(T.id(), row(1), at("b.000001", 4), null)).as("before every chunk").isTrue();
    }

    @Test
    void tablesTheSnapshotDidNotReadHaveNoChangesToSkip() {
        assertThat(window().reflects(new CdcTableId("db", "other"), row(150), at("b.000001", 4), null)).isFalse();
    }
}
