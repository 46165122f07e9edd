package dev.streamhouse.flink.cdc.mysql.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import org.junit.jupiter.api.Test;

class ChunkQueryTest {

    private static final MySqlType INT = new MySqlType("INT", false, 11, -1);

    @Test
    void aSingleColumnKeyRangeIsTwoComparisons() {
        ChunkQuery.Sql sql = ChunkQuery.select(TestTables.keyValue("t").schema(),
                new ChunkRange(new Object[] {10L}, new Object[] {20L}));
        assertThat(sql.text()).isEqualTo(
                "SELECT `id`, `v` FROM `db`.`t` WHERE (`id` >= ?) AND (`id` < ?) ORDER BY `id`");
        assertThat(sql.parameters()).containsExactly(10L, 20L);
        assertThat(ChunkQuery.select(TestTables.keyValue("t").schema(), ChunkRange.all()).text())
                .isEqualTo("SELECT `id`, `v` FROM `db`.`t` ORDER BY `id`");
    }

    @Test
    void aCompositeKeyRangeIsExpandedForTheIndex() {
        CapturedTable table = TestTables.builder("odd`name").column("a", INT).column("b", INT).column("c", INT)
                .key("a", "b").build();
        ChunkQuery.Sql sql = ChunkQuery.select(table.schema(), new ChunkRange(new Object[] {1L, 2L}, new Object[] {3L, 4L}));
        assertThat(sql.text()).isEqualTo("SELECT `a`, `b`, `c` FROM `db`.`odd``name` WHERE "
                + "((`a` > ?) OR (`a` = ? AND `b` >= ?)) AND ((`a` < ?) OR (`a` = ? AND `b` < ?)) ORDER BY `a`, `b`");
        assertThat(sql.parameters()).containsExactly(1L, 1L, 2L, 3L, 3L, 4L);
        ChunkQuery.Sql next = ChunkQuery.keyAtOffset(table.schema(), new Object[] {5L, 6L}, 100);
        assertThat(next.text()).isEqualTo("SELECT `a`, `b` FROM `db`.`odd``name` WHERE (`a` > ?) OR (`a` = ? AND "
                + "`b` >= ?) ORDER BY `a`, `b` LIMIT 1 OFFSET 100");
        assertThat(next.parameters()).containsExactly(5L, 5L, 6L);
    }
}
