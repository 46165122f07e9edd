package dev.streamhouse.flink.source.split;

import dev.streamhouse.flink.source.testutils.SourceTestTables;
import dev.streamhouse.flink.source.testutils.Splits;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static dev.streamhouse.flink.source.testutils.SourceTestTables.pkRow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PaimonSplitSerializerTest {
    private static final PaimonSplitSerializer SERIALIZER = PaimonSplitSerializer.INSTANCE;

    @TempDir
    java.nio.file.Path tmp;

    private static PaimonSplit roundTrip(PaimonSplit split) throws IOException {
        return SERIALIZER.deserialize(SERIALIZER.getVersion(), SERIALIZER.serialize(split));
    }

    @Test
    void roundTripsPlannedSplitsWithTheirProgress() throws Exception {
        FileStoreTable append = SourceTestTables.appendTable(tmp, 30, 3);
        FileStoreTable pk = SourceTestTables.primaryKeyTable(tmp, "bucket", "2");
        SourceTestTables.writePk(pk, 1, List.of(pkRow(RowKind.INSERT, 1, 1, "a"), pkRow(RowKind.INSERT, 2, 2, "b")));
        SourceTestTables.writePk(pk, 2, List.of(pkRow(RowKind.DELETE, 1, 1, "a")));

        List<DataSplit> planned = new ArrayList<>(append.newReadBuilder().newScan().plan().splits());
        planned.addAll(pk.newReadBuilder().newScan().plan().splits());
        assertThat(planned).hasSize(4); // 3 partitions; keys 1 and 2 hash to the same bucket
        for (int i = 0; i < planned.size(); i++) {
            PaimonSplit split = new PaimonSplit("s-" + i, planned.get(i), i * 1000L);
            PaimonSplit back = roundTrip(split);
            assertThat(back).isEqualTo(split);
            assertThat(back.dataSplit().files()).isEqualTo(planned.get(i).files());
            assertThat(back.recordsToSkip()).isEqualTo(i * 1000L);
        }
    }

    @Test
    void version1WrittenOnceStaysReadable() throws Exception {
        // Written by this serializer at version 1 (see golden/README). If this fails, a change broke
        // restoring checkpoints taken by an earlier build: add a new version instead.
        byte[] golden;
        try (InputStream in = getClass().getResourceAsStream("/golden/paimon-split-v1.bin")) {
            assertThat(in).as("golden file").isNotNull();
            golden = in.readAllBytes();
        }
        assertThat(SERIALIZER.deserialize(1, golden)).isEqualTo(Splits.deterministic());
    }

    @Test
    void refusesVersionsItDoesNotKnow() {
        assertThatThrownBy(() -> SERIALIZER.deserialize(2, SERIALIZER.serialize(Splits.deterministic())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("serializer version 2")
                .hasMessageContaining("knows versions up to 1");
    }

    @Test
    void refusesTrailingBytes() throws Exception {
        byte[] bytes = SERIALIZER.serialize(Splits.deterministic());
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> SERIALIZER.deserialize(1, longer))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1 unexpected trailing bytes");
    }

    @Test
    void splitStateCountsOnFromTheRestoredProgress() {
        PaimonSplit restored = Splits.deterministic();
        PaimonSplitState state = new PaimonSplitState(restored);
        assertThat(state.toSplit()).isSameAs(restored);
        state.recordEmitted();
        state.recordEmitted();
        assertThat(state.toSplit().recordsToSkip()).isEqualTo(44);
        assertThat(state.toSplit().dataSplit()).isSameAs(restored.dataSplit());
        assertThat(state.toSplit().splitId()).isEqualTo("7-0");
    }
}
