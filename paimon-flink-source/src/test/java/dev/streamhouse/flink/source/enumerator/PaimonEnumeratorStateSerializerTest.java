package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.common.testutils.GoldenFiles;
import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.split.PaimonSplitSerializer;
import dev.streamhouse.flink.source.split.PaimonSplitSerializerTest;
import dev.streamhouse.flink.source.testutils.Splits;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PaimonEnumeratorStateSerializerTest {
    private static final PaimonEnumeratorStateSerializer SERIALIZER =
            new PaimonEnumeratorStateSerializer(PaimonSplitSerializer.INSTANCE);

    static PaimonEnumeratorState goldenState() {
        return new PaimonEnumeratorState(List.of(Splits.deterministic(), Splits.empty("1-1")));
    }

    /** The unbounded state of golden file v2: the splits of {@link #goldenState()}, next snapshot 8. */
    static PaimonEnumeratorState goldenStateV2() {
        return new PaimonEnumeratorState(goldenState().unassignedSplits(), 8L);
    }

    @Test
    void roundTripsEmptyAndNonEmptyStates() throws Exception {
        for (PaimonEnumeratorState state : List.of(new PaimonEnumeratorState(List.of()), goldenState(),
                new PaimonEnumeratorState(List.of(), 1L), goldenStateV2())) {
            assertThat(SERIALIZER.deserialize(SERIALIZER.getVersion(), SERIALIZER.serialize(state))).isEqualTo(state);
        }
    }

    private static byte[] golden(String name) throws IOException {
        try (InputStream in = PaimonEnumeratorStateSerializerTest.class.getResourceAsStream("/golden/" + name)) {
            assertThat(in).as("golden file " + name).isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void version1WrittenOnceStaysReadable() throws Exception {
        PaimonEnumeratorState state = SERIALIZER.deserialize(1, golden("paimon-enumerator-state-v1.bin"));
        assertThat(state).isEqualTo(goldenState());
        assertThat(state.nextSnapshotId()).isNull();
    }

    @Test
    void version2WrittenOnceStaysReadable() throws Exception {
        assertThat(SERIALIZER.getVersion()).isEqualTo(2);
        byte[] golden = golden("paimon-enumerator-state-v2.bin");
        assertThat(SERIALIZER.deserialize(2, golden)).isEqualTo(goldenStateV2());
    }

    @Test
    void version2WithVersion2SplitsWrittenOnceStaysReadable() throws Exception {
        // The state of the v2 file, its splits written by split serializer version 2 (see golden/README).
        byte[] golden = golden("paimon-enumerator-state-v2-splits-v2.bin");
        assertThat(SERIALIZER.deserialize(2, golden)).isEqualTo(goldenStateV2());
        // Written now, the splits hold the data split in storage's current form (it moves on with storage);
        // the state around them keeps the version 2 layout.
        org.apache.flink.core.memory.DataOutputSerializer expected =
                new org.apache.flink.core.memory.DataOutputSerializer(256);
        expected.writeInt(PaimonSplitSerializer.INSTANCE.getVersion());
        expected.writeInt(goldenStateV2().unassignedSplits().size());
        for (dev.streamhouse.flink.source.split.PaimonSplit split : goldenStateV2().unassignedSplits()) {
            byte[] bytes = PaimonSplitSerializer.INSTANCE.serialize(split);
            expected.writeInt(bytes.length);
            expected.write(bytes);
        }
        expected.writeBoolean(true);
        expected.writeLong(8);
        assertThat(SERIALIZER.serialize(goldenStateV2())).isEqualTo(expected.getCopyOfBuffer());
    }

    /** The state of golden file {@code paimon-enumerator-state-v2-storage-v3.hex}: three splits, next snapshot 12. */
    static PaimonEnumeratorState goldenCurrentState() {
        return new PaimonEnumeratorState(List.of(Splits.withDeletionFiles(), Splits.diff(), Splits.deterministic()),
                12L);
    }

    /**
     * Version 2 (current) as written now (splits version 2, storage's data splits in versions 1 to 3
     * as it writes them): read back field by field and written again to the same bytes. If this fails
     * after a change, the change altered a checkpointed format: add a version instead.
     */
    @Test
    void currentVersionBytesAreGolden() throws Exception {
        byte[] written = SERIALIZER.serialize(goldenCurrentState());
        byte[] golden = GoldenFiles.read("paimon-enumerator-state-v2-storage-v3.hex", () -> written);
        PaimonEnumeratorState back = SERIALIZER.deserialize(2, golden);
        assertThat(back.nextSnapshotId()).isEqualTo(12L);
        List<PaimonSplit> expected = goldenCurrentState().unassignedSplits();
        assertThat(back.unassignedSplits()).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            PaimonSplitSerializerTest.assertSameSplit(back.unassignedSplits().get(i), expected.get(i));
        }
        assertThat(back).isEqualTo(goldenCurrentState());
        GoldenFiles.assertWrittenAs("paimon-enumerator-state-v2-storage-v3.hex", written);
    }

    @Test
    void aBoundedStateWrittenAsVersion2ReadsWithoutNextSnapshot() throws Exception {
        PaimonEnumeratorState state = SERIALIZER.deserialize(2, SERIALIZER.serialize(goldenState()));
        assertThat(state).isEqualTo(goldenState());
        assertThat(state.nextSnapshotId()).isNull();
    }

    @Test
    void refusesVersionsItDoesNotKnow() {
        assertThatThrownBy(() -> SERIALIZER.deserialize(7, SERIALIZER.serialize(goldenState())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("serializer version 7");
    }
}
