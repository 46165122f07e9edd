package dev.streamhouse.flink.cdc.mysql.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.cdc.event.CdcRecord.Op;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkBackfillTest {

    private static final KeyOrder ORDER = KeyOrder.of(TestTables.keyValue("t"));
    private static final ChunkRange RANGE = new ChunkRange(new Object[] {10L}, new Object[] {20L});

    private static Object[] row(long id, String v) {
        return new Object[] {id, v};
    }

    private static List<String> apply(List<Object[]> rows, RowChange... changes) {
        List<String> out = new ArrayList<>();
        for (Object[] r : ChunkBackfill.apply(rows, List.of(changes), RANGE, ORDER, null)) {
            out.add(r[0] + "=" + r[1]);
        }
        return out;
    }

    @Test
    void theLastChangeOfEachKeyInTheRangeDecidesItsRow() {
        List<Object[]> rows = List.of(row(10, "a"), row(12, "b"), row(15, "c"));
        assertThat(apply(rows,
                new RowChange(Op.UPDATE, row(12, "b"), row(12, "b2")),
                new RowChange(Op.INSERT, null, row(11, "new")),
                new RowChange(Op.DELETE, row(15, "c"), null),
                new RowChange(Op.INSERT, null, row(15, "again")),
                new RowChange(Op.UPDATE, row(12, "b2"), row(12, "b3")),
                new RowChange(Op.INSERT, null, row(25, "outside")),
                new RowChange(Op.DELETE, row(5, "outside"), null)))
                .containsExactlyInAnyOrder("10=a", "11=new", "12=b3", "15=again");
    }

    @Test
    void keysMovingAcrossTheRangeBoundAreRemovedOrAdded() {
        List<Object[]> rows = List.of(row(10, "a"), row(19, "z"));
        assertThat(apply(rows,
                new RowChange(Op.UPDATE, row(10, "a"), row(30, "a")),
                new RowChange(Op.UPDATE, row(40, "x"), row(13, "x"))))
                .containsExactlyInAnyOrder("13=x", "19=z");
    }

    @Test
    void replayingAChangeTheSnapshotAlreadySawChangesNothing() {
        List<Object[]> rows = List.of(row(10, "a2"), row(11, "b"));
        assertThat(apply(rows,
                new RowChange(Op.UPDATE, row(10, "a"), row(10, "a2")),
                new RowChange(Op.INSERT, null, row(11, "b")),
                new RowChange(Op.DELETE, row(12, "gone"), null)))
                .containsExactlyInAnyOrder("10=a2", "11=b");
    }
}
