package dev.streamhouse.flink.cdc.source.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.cdc.debezium.BinlogStart;
import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkRange;
import dev.streamhouse.flink.cdc.mysql.snapshot.TestTables;
import dev.streamhouse.flink.cdc.source.enumerator.ChunkAssignmentState;
import dev.streamhouse.flink.cdc.source.enumerator.MySqlCdcEnumeratorState;
import dev.streamhouse.flink.cdc.source.enumerator.MySqlCdcEnumeratorStateSerializer;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChunkSplitSerializerTest {

    private static final MySqlSplitSerializer SPLITS = MySqlSplitSerializer.INSTANCE;

    static CapturedTable wide() {
        return TestTables.builder("wide")
                .column("k1", new MySqlType("DATETIME", false, 6, -1))
                .column("k2", new MySqlType("VARBINARY", false, 4, -1))
                .column("v", new MySqlType("DECIMAL", true, 10, 2))
                .enumColumn("e", List.of("a", "it's"))
                .column("s", new MySqlType("VARCHAR", false, 5, -1), "latin1", "latin1_bin")
                .key("k1", "k2").build();
    }

    private static MySqlSplit roundTrip(MySqlSplit split) throws Exception {
        return SPLITS.deserialize(SPLITS.getVersion(), SPLITS.serialize(split));
    }

    @Test
    void chunkSplitsRoundTripWithEveryKeyValueType() throws Exception {
        CapturedTable table = wide();
        Object[] lower = {LocalDateTime.parse("1000-01-01T00:00:00.000001"), new byte[] {0, (byte) 0xff}};
        Object[] upper = {LocalDateTime.parse("2030-01-01T00:00"), new byte[0]};
        MySqlChunkSplit split = new MySqlChunkSplit(table, 7, new ChunkRange(lower, upper), null);
        assertThat(roundTrip(split)).isEqualTo(split);
        MySqlChunkSplit emitted = split.withHighWatermark(new BinlogPosition("binlog.000003", 1234));
        assertThat(roundTrip(emitted)).isEqualTo(emitted);
        assertThat(emitted.splitId()).isEqualTo("`db`.`wide`#7");
        for (Object value : new Object[] {-5L, new BigDecimal("-1.50"), 2.5d, 1.25f, "\u00e9\ud83d\ude00", true,
                LocalDate.of(-4, 2, 29), Instant.parse("1970-01-01T00:00:00.123456Z"), Duration.ofSeconds(-3020399),
                null}) {
            MySqlChunkSplit one = new MySqlChunkSplit(TestTables.keyValue("t"), 0,
                    new ChunkRange(new Object[] {value}, null), null);
            assertThat(roundTrip(one)).as(String.valueOf(value)).isEqualTo(one);
        }
    }

    @Test
    void binlogSplitsRoundTripWithTheirSnapshotWindow() throws Exception {
        MySqlBinlogSplit split = new MySqlBinlogSplit("{\"file\":\"b.000001\",\"pos\":500}", List.of(), false, 0,
                SnapshotWindowTest.window());
        MySqlSplit copy = roundTrip(split);
        assertThat(copy).isEqualTo(split);
        assertThat(((MySqlBinlogSplit) copy).window().highestHighWatermark())
                .isEqualTo(new BinlogPosition("b.000002", 300));
    }

    @Test
    void enumeratorStatesWithChunkAssignmentsRoundTrip() throws Exception {
        CapturedTable t = TestTables.keyValue("t");
        CapturedTable w = wide();
        MySqlChunkSplit t0 = new MySqlChunkSplit(t, 0, new ChunkRange(null, new Object[] {10L}), null);
        MySqlChunkSplit t1 = new MySqlChunkSplit(t, 1, new ChunkRange(new Object[] {10L}, new Object[] {20L}), null);
        MySqlChunkSplit t2 = new MySqlChunkSplit(t, 2, new ChunkRange(new Object[] {20L}, null),
                new BinlogPosition("b.000001", 77));
        ChunkAssignmentState chunks = new ChunkAssignmentState(List.of(t, w), List.of(w.id()), List.of(t0),
                Map.of(1, List.of(t1)), List.of(t2), false);
        MySqlCdcEnumeratorStateSerializer serializer = new MySqlCdcEnumeratorStateSerializer();
        BinlogStart start = new BinlogStart("{\"file\":\"b.000001\",\"pos\":4}",
                List.of("{\"ddl\":\"CREATE TABLE `t` (`k` BIGINT)\"}", "{\"ddl\":\"ü\"}"));
        for (MySqlCdcEnumeratorState state : List.of(new MySqlCdcEnumeratorState(null, true, false, chunks, start),
                new MySqlCdcEnumeratorState(new MySqlBinlogSplit("{}", List.of(), false, 0, SnapshotWindowTest.window()),
                        true, true, chunks, start),
                new MySqlCdcEnumeratorState(null, true, false, chunks, null))) {
            assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(state))).isEqualTo(state);
        }
    }
}
