package dev.streamhouse.flink.cdc.source.split;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.common.testutils.GoldenFiles;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every split version the serializer reads, from checked-in bytes ({@code golden/README.md}). If a
 * test fails after a change, the change broke restoring running jobs: add a version instead.
 */
public class MySqlSplitSerializerGoldenTest {

    private static final MySqlSplitSerializer SPLITS = MySqlSplitSerializer.INSTANCE;

    @Test
    void version1BinlogSplitsRead() throws IOException {
        byte[] golden = GoldenFiles.read("mysql-split-v1.hex",
                () -> CdcStateFixtures.frozenVersion1Split(CdcStateFixtures.binlogSplitV1()));
        assertSameSplit(SPLITS.deserialize(1, golden), CdcStateFixtures.binlogSplitV1());
    }

    @Test
    void version2BinlogSplitBytesAreGolden() throws IOException {
        assertThat(SPLITS.getVersion()).isEqualTo(2);
        assertGolden("mysql-split-v2-binlog.hex", CdcStateFixtures.binlogSplitWithWindow());
    }

    @Test
    void version2ChunkSplitBytesAreGolden() throws IOException {
        assertGolden("mysql-split-v2-chunk.hex", CdcStateFixtures.chunkSplit());
    }

    private static void assertGolden(String name, MySqlSplit expected) throws IOException {
        byte[] written = SPLITS.serialize(expected);
        assertSameSplit(SPLITS.deserialize(2, GoldenFiles.read(name, () -> written)), expected);
        GoldenFiles.assertWrittenAs(name, written);
    }

    /** Compares two splits field by field, so that a failure names the field. */
    public static void assertSameSplit(MySqlSplit actual, MySqlSplit expected) {
        assertThat(actual).hasSameClassAs(expected);
        if (expected instanceof MySqlChunkSplit e) {
            MySqlChunkSplit a = (MySqlChunkSplit) actual;
            assertThat(a.table().schema().version()).as("schema version").isEqualTo(e.table().schema().version());
            assertThat(a.table().schema().columns()).as("columns").isEqualTo(e.table().schema().columns());
            assertThat(a.table().schema().primaryKeys()).as("key").isEqualTo(e.table().schema().primaryKeys());
            assertThat(a.table().encodings()).as("encodings").isEqualTo(e.table().encodings());
            assertThat(a.table()).as("table").isEqualTo(e.table());
            assertThat(a.index()).as("index").isEqualTo(e.index());
            assertThat(a.range()).as("range").isEqualTo(e.range());
            assertThat(a.highWatermark()).as("high watermark").isEqualTo(e.highWatermark());
        } else {
            MySqlBinlogSplit e = (MySqlBinlogSplit) expected;
            MySqlBinlogSplit a = (MySqlBinlogSplit) actual;
            assertThat(a.offsetJson()).as("offset").isEqualTo(e.offsetJson());
            assertThat(a.history()).as("history").isEqualTo(e.history());
            assertThat(a.snapshotPending()).as("snapshot pending").isEqualTo(e.snapshotPending());
            assertThat(a.skipBeforeMillis()).as("skip before").isEqualTo(e.skipBeforeMillis());
            if (e.window() == null) {
                assertThat(a.window()).as("window").isNull();
            } else {
                assertThat(a.window().tables()).as("window tables").isEqualTo(e.window().tables());
                assertThat(a.window().chunks()).as("window chunks").isEqualTo(e.window().chunks());
            }
        }
        assertThat(actual).isEqualTo(expected);
    }

    /** Helper for other tests: field by field over lists. */
    public static void assertSameSplits(List<? extends MySqlSplit> actual, List<? extends MySqlSplit> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            assertSameSplit(actual.get(i), expected.get(i));
        }
    }
}
