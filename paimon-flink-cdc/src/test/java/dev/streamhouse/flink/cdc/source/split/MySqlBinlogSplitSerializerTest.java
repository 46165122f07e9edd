package dev.streamhouse.flink.cdc.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.cdc.source.enumerator.MySqlCdcEnumeratorState;
import dev.streamhouse.flink.cdc.source.enumerator.MySqlCdcEnumeratorStateSerializer;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class MySqlBinlogSplitSerializerTest {

    private static final String OFFSET = "{\"file\":\"binlog.000002\",\"pos\":1234,\"gtids\":\"0-1-17\",\"row\":1}";
    private static final String HISTORY = "{\"source\":{\"server\":\"x\"},\"ddl\":\"CREATE TABLE t (id INT) \u00e9\"}";

    @Test
    void splitsRoundTrip() throws IOException {
        MySqlSplitSerializer serializer = MySqlSplitSerializer.INSTANCE;
        for (MySqlBinlogSplit split : List.of(new MySqlBinlogSplit(null, List.of(), true, 0),
                new MySqlBinlogSplit(OFFSET, List.of(HISTORY, HISTORY + "2"), false, 1_700_000_000_000L))) {
            MySqlBinlogSplit copy = (MySqlBinlogSplit) serializer.deserialize(serializer.getVersion(),
                    serializer.serialize(split));
            assertThat(copy).isEqualTo(split);
            assertThat(copy.historyRecords().snapshot()).isEqualTo(split.history());
        }
    }

    @Test
    void anUnknownVersionIsRefused() {
        assertThatThrownBy(() -> MySqlSplitSerializer.INSTANCE.deserialize(3, new byte[0]))
                .hasMessageContaining("serializer version 3");
    }

    @Test
    void aSplitWithoutOffsetMustStartWithASnapshot() {
        assertThatThrownBy(() -> new MySqlBinlogSplit(null, List.of(), false, 0))
                .hasMessageContaining("needs an offset");
    }

    @Test
    void enumeratorStatesRoundTrip() throws IOException {
        MySqlCdcEnumeratorStateSerializer serializer = new MySqlCdcEnumeratorStateSerializer();
        for (MySqlCdcEnumeratorState state : List.of(new MySqlCdcEnumeratorState(null, true, true),
                new MySqlCdcEnumeratorState(new MySqlBinlogSplit(OFFSET, List.of(HISTORY), false, 0), true, false))) {
            assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(state))).isEqualTo(state);
        }
    }

    @Test
    void stateMovesOnlyWithBinlogRecords() {
        MySqlBinlogSplit start = new MySqlBinlogSplit(null, List.of(), true, 0);
        MySqlBinlogSplitState state = new MySqlBinlogSplitState(start);
        state.advance(java.util.Map.of("file", "binlog.000001", "pos", 4L, "snapshot", true), true);
        assertThat(state.snapshotPending()).isTrue();
        assertThat(state.toSplit()).isSameAs(start);
        start.historyRecords().add(HISTORY);
        state.advance(java.util.Map.of("file", "binlog.000001", "pos", 99L), false);
        assertThat(state.snapshotPending()).isFalse();
        MySqlBinlogSplit next = state.toSplit();
        assertThat(next.snapshotPending()).isFalse();
        assertThat(next.offsetJson()).contains("\"pos\":99");
        assertThat(next.history()).containsExactly(HISTORY);
    }
}
