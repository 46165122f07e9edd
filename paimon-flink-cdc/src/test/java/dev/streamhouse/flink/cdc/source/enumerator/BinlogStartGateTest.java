package dev.streamhouse.flink.cdc.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BinlogStartGateTest {

    @Test
    void withSeveralReadersTheBinlogWaitsForACheckpointAfterTheLastChunk() {
        BinlogStartGate gate = new BinlogStartGate(2, false);
        assertThat(gate.isOpen()).as("no checkpoint seen: checkpointing may be off").isTrue();
        gate.checkpointTriggered(1, false);
        assertThat(gate.isOpen()).isFalse();
        gate.checkpointCompleted(1);
        assertThat(gate.isOpen()).as("taken before the last chunk").isFalse();
        gate.checkpointTriggered(2, true);
        gate.checkpointTriggered(3, true);
        gate.checkpointCompleted(1);
        assertThat(gate.isOpen()).isFalse();
        gate.checkpointCompleted(2);
        assertThat(gate.isOpen()).isTrue();
        gate.reset();
        assertThat(gate.isOpen()).isFalse();
    }

    @Test
    void oneReaderNeedsNoCheckpointAndARestoredOneWaitsForANewOne() {
        BinlogStartGate single = new BinlogStartGate(1, true);
        assertThat(single.isOpen()).isTrue();
        BinlogStartGate restored = new BinlogStartGate(2, true);
        assertThat(restored.isOpen()).isFalse();
        restored.checkpointTriggered(7, true);
        restored.checkpointCompleted(7);
        assertThat(restored.isOpen()).isTrue();
    }
}
