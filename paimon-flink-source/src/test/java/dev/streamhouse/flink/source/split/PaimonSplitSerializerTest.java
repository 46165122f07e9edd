package dev.streamhouse.flink.source.split;

import dev.streamhouse.flink.common.testutils.GoldenFiles;
import dev.streamhouse.flink.source.testutils.SourceTestTables;
import dev.streamhouse.flink.source.testutils.Splits;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.serialization.DataSplitSerializer;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.DataSplit;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static dev.streamhouse.flink.source.testutils.SourceTestTables.pkRow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class PaimonSplitSerializerTest {
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
        assertSameSplit(SERIALIZER.deserialize(1, golden), Splits.deterministic());
    }

    @Test
    void version2WrittenOnceStaysReadable() throws Exception {
        // Written by this serializer at version 2 (see golden/README): the data split in storage's
        // binary form. If this fails, a change broke restoring checkpoints: add a new version instead.
        assertThat(SERIALIZER.getVersion()).isEqualTo(2);
        byte[] golden = golden("paimon-split-v2.bin");
        assertSameSplit(SERIALIZER.deserialize(2, golden), Splits.deterministic());
        // The data split moves on with storage's serializer (its own version first); the rest is the
        // version 2 layout: split id, records to skip, length and bytes of the data split.
        PaimonSplit split = Splits.deterministic();
        byte[] dataSplit = DataSplitSerializer.INSTANCE.serialize(split.dataSplit());
        DataOutputSerializer expected = new DataOutputSerializer(64);
        expected.writeUTF(split.splitId());
        expected.writeLong(split.recordsToSkip());
        expected.writeInt(dataSplit.length);
        expected.write(dataSplit);
        assertThat(SERIALIZER.serialize(split)).isEqualTo(expected.getCopyOfBuffer());
        // The golden file has the same split id and records to skip, then the data split in storage's version 1.
        int header = expected.length() - dataSplit.length - 4;
        assertThat(java.util.Arrays.copyOfRange(golden, 0, header))
                .isEqualTo(java.util.Arrays.copyOfRange(expected.getCopyOfBuffer(), 0, header));
        assertThat(java.nio.ByteBuffer.wrap(golden).getInt(header + 4)).as("its data split's version").isEqualTo(1);
    }

    /**
     * Version 2 (current) as written now, one file per storage data split layout it writes (version 2
     * for a split with deletion files, version 3 for a diff split): read back field by field and
     * written again to the same bytes. If this fails after a change, the change altered a
     * checkpointed format: add a version (here or in storage's DataSplitSerializer) instead.
     */
    @Test
    void currentVersionBytesAreGolden() throws Exception {
        assertThat(SERIALIZER.getVersion()).isEqualTo(2);
        assertGolden("paimon-split-v2-deletion-files.hex", Splits.withDeletionFiles(), 2);
        assertGolden("paimon-split-v2-diff.hex", Splits.diff(), 3);
    }

    private static void assertGolden(String name, PaimonSplit expected, int dataSplitVersion) throws IOException {
        byte[] written = SERIALIZER.serialize(expected);
        byte[] golden = GoldenFiles.read(name, () -> written);
        PaimonSplit back = SERIALIZER.deserialize(2, golden);
        assertSameSplit(back, expected);
        int dataSplitStart = 2 + expected.splitId().getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 8 + 4;
        assertThat(java.nio.ByteBuffer.wrap(golden).getInt(dataSplitStart)).as("data split version of " + name)
                .isEqualTo(dataSplitVersion);
        GoldenFiles.assertWrittenAs(name, written);
    }

    /** Compares two splits field by field, so that a failure names the field. */
    public static void assertSameSplit(PaimonSplit actual, PaimonSplit expected) {
        assertThat(actual.splitId()).isEqualTo(expected.splitId());
        assertThat(actual.recordsToSkip()).isEqualTo(expected.recordsToSkip());
        DataSplit a = actual.dataSplit();
        DataSplit e = expected.dataSplit();
        assertThat(a.snapshotId()).as("snapshot id").isEqualTo(e.snapshotId());
        assertThat(a.partition()).as("partition").isEqualTo(e.partition());
        assertThat(a.bucket()).as("bucket").isEqualTo(e.bucket());
        assertThat(a.totalBuckets()).as("total buckets").isEqualTo(e.totalBuckets());
        assertThat(a.files()).as("files").containsExactlyElementsOf(e.files());
        assertThat(a.rawConvertible()).as("raw convertible").isEqualTo(e.rawConvertible());
        assertThat(a.delta()).as("delta").isEqualTo(e.delta());
        assertThat(a.deletionFiles()).as("deletion files").isEqualTo(e.deletionFiles());
        assertThat(a.beforeFiles()).as("before files").containsExactlyElementsOf(e.beforeFiles());
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void version1SplitsReadAsTheyWereAndWriteAsVersion2() throws Exception {
        PaimonSplit restored = SERIALIZER.deserialize(1, golden("paimon-split-v1.bin"));
        assertThat(restored.dataSplit().delta()).isFalse(); // written before delta splits existed
        assertThat(restored.dataSplit().files().get(1).fileSource()).isEqualTo(FileSource.COMPACT);
        assertThat(roundTrip(restored)).isEqualTo(restored);
    }

    @Test
    void version1ReadsNoClassesButThoseOfADataSplit() throws Exception {
        // A version 1 split whose "data split" bytes hold another serializable class.
        java.io.ByteArrayOutputStream javaBytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(javaBytes)) {
            out.writeObject(new java.util.HashMap<>(java.util.Map.of("k", "v")));
        }
        org.apache.flink.core.memory.DataOutputSerializer split = new org.apache.flink.core.memory.DataOutputSerializer(64);
        split.writeUTF("1-0");
        split.writeLong(0);
        split.writeInt(javaBytes.size());
        split.write(javaBytes.toByteArray());
        assertThatThrownBy(() -> SERIALIZER.deserialize(1, split.getCopyOfBuffer()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot read the data split of Paimon source split 1-0 (version 1)")
                .hasMessageContaining("java.util.HashMap");
    }

    private static byte[] golden(String name) throws IOException {
        try (InputStream in = PaimonSplitSerializerTest.class.getResourceAsStream("/golden/" + name)) {
            assertThat(in).as("golden file " + name).isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void refusesVersionsItDoesNotKnow() {
        assertThatThrownBy(() -> SERIALIZER.deserialize(3, SERIALIZER.serialize(Splits.deterministic())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("serializer version 3")
                .hasMessageContaining("knows versions up to 2");
    }

    @Test
    void refusesTrailingBytes() throws Exception {
        byte[] bytes = SERIALIZER.serialize(Splits.deterministic());
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> SERIALIZER.deserialize(1, longer))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("1 unexpected trailing bytes");
        byte[] v1 = golden("paimon-split-v1.bin");
        byte[] v1Longer = java.util.Arrays.copyOf(v1, v1.length + 1);
        assertThatThrownBy(() -> SERIALIZER.deserialize(1, v1Longer))
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
