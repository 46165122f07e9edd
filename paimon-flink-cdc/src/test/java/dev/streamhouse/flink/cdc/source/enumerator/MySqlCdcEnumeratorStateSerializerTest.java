package dev.streamhouse.flink.cdc.source.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.cdc.source.split.CdcStateFixtures;
import dev.streamhouse.flink.cdc.source.split.MySqlSplitSerializerGoldenTest;
import dev.streamhouse.flink.common.testutils.GoldenFiles;
import java.io.IOException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Every enumerator state version the serializer reads, from checked-in bytes ({@code golden/README.md}).
 * If a test fails after a change, the change broke restoring running jobs: add a version instead.
 */
class MySqlCdcEnumeratorStateSerializerTest {

    private static final MySqlCdcEnumeratorStateSerializer SERIALIZER = new MySqlCdcEnumeratorStateSerializer();

    @Test
    void version1StatesRead() throws IOException {
        byte[] golden = GoldenFiles.read("mysql-enumerator-state-v1.hex",
                () -> CdcStateFixtures.frozenVersion1EnumeratorState(CdcStateFixtures.enumeratorStateV1()));
        assertSameState(SERIALIZER.deserialize(1, golden), CdcStateFixtures.enumeratorStateV1());
    }

    /**
     * Version 2 is version 3 without the binlog-start flag at the end: commit 7992c1d, which added
     * version 3, only appended it. The golden file was built once that way from a state without binlog
     * start; it is read here, never built.
     */
    @Test
    void version2StatesRead() throws IOException {
        byte[] golden = GoldenFiles.read("mysql-enumerator-state-v2.hex", () -> {
            try {
                byte[] v3 = SERIALIZER.serialize(CdcStateFixtures.enumeratorStateV2());
                assertThat(v3[v3.length - 1]).as("binlog-start flag").isZero();
                return Arrays.copyOf(v3, v3.length - 1);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertSameState(SERIALIZER.deserialize(2, golden), CdcStateFixtures.enumeratorStateV2());
    }

    @Test
    void version3BytesAreGolden() throws IOException {
        assertThat(SERIALIZER.getVersion()).isEqualTo(3);
        assertGolden("mysql-enumerator-state-v3.hex", CdcStateFixtures.enumeratorStateV3());
        assertGolden("mysql-enumerator-state-v3-binlog.hex", CdcStateFixtures.enumeratorStateV3WithBinlogSplit());
    }

    @Test
    void unknownVersionsAreRefused() {
        assertThatThrownBy(() -> SERIALIZER.deserialize(4, new byte[0])).hasMessageContaining("version 4");
        assertThatThrownBy(() -> SERIALIZER.deserialize(0, new byte[0])).hasMessageContaining("version 0");
    }

    private static void assertGolden(String name, MySqlCdcEnumeratorState expected) throws IOException {
        byte[] written = SERIALIZER.serialize(expected);
        assertSameState(SERIALIZER.deserialize(3, GoldenFiles.read(name, () -> written)), expected);
        GoldenFiles.assertWrittenAs(name, written);
    }

    /** Compares two states field by field, so that a failure names the field. */
    private static void assertSameState(MySqlCdcEnumeratorState actual, MySqlCdcEnumeratorState expected) {
        assertThat(actual.created()).as("created").isEqualTo(expected.created());
        assertThat(actual.snapshotFinished()).as("snapshot finished").isEqualTo(expected.snapshotFinished());
        if (expected.unassigned() == null) {
            assertThat(actual.unassigned()).as("unassigned binlog split").isNull();
        } else {
            MySqlSplitSerializerGoldenTest.assertSameSplit(actual.unassigned(), expected.unassigned());
        }
        ChunkAssignmentState e = expected.chunks();
        ChunkAssignmentState a = actual.chunks();
        if (e == null) {
            assertThat(a).as("chunk assignments").isNull();
        } else {
            assertThat(a.tables()).as("tables").isEqualTo(e.tables());
            assertThat(a.tablesToSplit()).as("tables to split").isEqualTo(e.tablesToSplit());
            MySqlSplitSerializerGoldenTest.assertSameSplits(a.unassigned(), e.unassigned());
            assertThat(a.assigned().keySet()).as("subtasks").containsExactlyElementsOf(e.assigned().keySet());
            for (Integer subtask : e.assigned().keySet()) {
                MySqlSplitSerializerGoldenTest.assertSameSplits(a.assigned().get(subtask), e.assigned().get(subtask));
            }
            MySqlSplitSerializerGoldenTest.assertSameSplits(a.finished(), e.finished());
            assertThat(a.binlogAssigned()).as("binlog assigned").isEqualTo(e.binlogAssigned());
        }
        assertThat(actual.binlogStart()).as("binlog start").isEqualTo(expected.binlogStart());
        assertThat(actual).isEqualTo(expected);
    }
}
