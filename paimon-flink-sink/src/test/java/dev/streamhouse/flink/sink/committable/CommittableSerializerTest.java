package dev.streamhouse.flink.sink.committable;

import dev.streamhouse.flink.sink.committer.CommitterState;
import dev.streamhouse.flink.sink.committer.CommitterStateSerializer;
import dev.streamhouse.flink.common.testutils.GoldenFiles;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.types.DataTypes;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

public class CommittableSerializerTest {
    private static final String GOLDEN_V1 = "/golden/committable-v1.hex";
    private static final String GOLDEN_V2 = "/golden/committable-v2.hex";

    /** The committable of golden file v2: the messages of v1's, naming table {@code default.orders}. */
    static Committable goldenV2() {
        return Committable.ofCheckpoint(42, messages()).forTable("default.orders");
    }

    private static BinaryRow row(String... values) {
        Object[] internal = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            internal[i] = values[i] == null ? null : BinaryString.fromString(values[i]);
        }
        return new BinaryRowConverter(java.util.Collections.nCopies(values.length, DataTypes.STRING()))
                .toBinaryRow(internal);
    }

    /** A file with every nullable field set. */
    private static DataFileMeta fullFile(String name) {
        return new DataFileMeta(name, 1234, 56, row("a"), row("z"),
                new SimpleStats(row("a"), row("z"), new Long[] {0L}),
                new SimpleStats(row("a", null), row("z", "é"), new Long[] {0L, null}),
                7, 62, 3, 2, List.of("extra-1", "extra-2"), 1_700_000_000_000L, 4L, new byte[] {1, 2, 3},
                FileSource.COMPACT, List.of("k", "v"), "s3://bucket/x/" + name, 100L, List.of("v"));
    }

    /** A file with every nullable field null (and stats with unknown null counts). */
    private static DataFileMeta sparseFile(String name) {
        return new DataFileMeta(name, 10, 1, BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, SimpleStats.EMPTY,
                new SimpleStats(BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, null), 0, 0, 0, 0, List.of(), null, null,
                null, null, null, null, null, null);
    }

    /** Two commit messages that use every field, nulls where allowed and non-ASCII values. */
    public static List<CommitMessage> messages() {
        IndexFileMeta hash = new IndexFileMeta(IndexFileMeta.HASH_INDEX, "index-1", 400, 100, null, null);
        IndexFileMeta dv = new IndexFileMeta(IndexFileMeta.DELETION_VECTORS_INDEX, "index-2", 90, 2,
                List.of(new DeletionVectorMeta("data-1", 1, 20, 3L), new DeletionVectorMeta("data-2", 21, 30, null)),
                "s3://bucket/index-2");
        CommitMessage full = new CommitMessage(row("2024-01-01"), 3, -1,
                new DataIncrement(List.of(fullFile("data-1"), sparseFile("data-2")), List.of(sparseFile("old-1")),
                        List.of(sparseFile("changelog-1")), List.of(hash, dv), List.of(hash)),
                new CompactIncrement(List.of(fullFile("before-1")), List.of(fullFile("after-1")),
                        List.of(sparseFile("changelog-2"))));
        CommitMessage plain = CommitMessage.ofNewFiles(BinaryRow.EMPTY_ROW, 0, 4, List.of(sparseFile("data-3")));
        return List.of(full, plain);
    }

    private static Committable roundTrip(Committable c) throws IOException {
        byte[] bytes = SimpleVersionedSerialization.writeVersionAndSerialize(CommittableSerializer.INSTANCE, c);
        return SimpleVersionedSerialization.readVersionAndDeSerialize(CommittableSerializer.INSTANCE, bytes);
    }

    @Test
    void committablesRoundTrip() throws IOException {
        Committable checkpoint = Committable.ofCheckpoint(17, messages());
        Committable end = Committable.ofEndOfInput(messages());
        Committable empty = Committable.ofCheckpoint(0, List.of());
        Committable named = Committable.ofEndOfInput(messages()).forTable("db.t-ü");

        assertThat(roundTrip(named)).isEqualTo(named);
        assertThat(roundTrip(named).table()).contains("db.t-ü");
        assertThat(roundTrip(checkpoint).table()).isEmpty();
        assertThat(roundTrip(checkpoint)).isEqualTo(checkpoint);
        assertThat(roundTrip(checkpoint).checkpointId()).isEqualTo(17);
        assertThat(roundTrip(end)).isEqualTo(end);
        assertThat(roundTrip(end).isEndOfInput()).isTrue();
        assertThat(roundTrip(empty)).isEqualTo(empty);
        // Every field of every file survives (DataFileMeta.equals compares all of them).
        assertThat(roundTrip(checkpoint).messages().get(0).dataIncrement().newFiles().get(0))
                .isEqualTo(fullFile("data-1"));
        assertThat(roundTrip(checkpoint).messages().get(0).dataIncrement().newIndexFiles())
                .isEqualTo(messages().get(0).dataIncrement().newIndexFiles());
    }

    @Test
    void flinkTypeSerializerCarriesCommittables() throws IOException {
        TypeSerializer<Committable> serializer = CommittableTypeInfo.INSTANCE.createSerializer(new SerializerConfigImpl());
        Committable c = Committable.ofCheckpoint(3, messages());
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(c, out);
        serializer.serialize(Committable.ofEndOfInput(List.of()), out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        assertThat(serializer.deserialize(in)).isEqualTo(c);
        assertThat(serializer.deserialize(in).isEndOfInput()).isTrue();
    }

    @Test
    void committerStateRoundTrips() throws IOException {
        TreeMap<Long, List<CommitMessage>> pending = new TreeMap<>();
        pending.put(5L, messages());
        pending.put(9L, List.of(messages().get(1)));
        CommitterState state = new CommitterState("user-ü", pending);
        byte[] bytes = SimpleVersionedSerialization.writeVersionAndSerialize(CommitterStateSerializer.INSTANCE, state);
        CommitterState back = SimpleVersionedSerialization.readVersionAndDeSerialize(CommitterStateSerializer.INSTANCE,
                bytes);
        assertThat(back).isEqualTo(state);
        assertThat(back.pending().firstKey()).isEqualTo(5L);

        CommitterState none = new CommitterState("u", new TreeMap<>());
        assertThat(CommitterStateSerializer.INSTANCE.deserialize(1, CommitterStateSerializer.INSTANCE.serialize(none)))
                .isEqualTo(none);
    }

    @Test
    void unknownVersionsAndCorruptBytesAreRefused() throws IOException {
        byte[] bytes = CommittableSerializer.INSTANCE.serialize(Committable.ofCheckpoint(1, messages()));
        int current = CommittableSerializer.INSTANCE.getVersion();
        assertThatThrownBy(() -> CommittableSerializer.INSTANCE.deserialize(current + 1, bytes))
                .hasMessageContaining("version " + (current + 1));
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> CommittableSerializer.INSTANCE.deserialize(current, longer))
                .hasMessageContaining("trailing");
        byte[] shorter = java.util.Arrays.copyOf(bytes, bytes.length - 1);
        assertThatThrownBy(() -> CommittableSerializer.INSTANCE.deserialize(current, shorter))
                .isInstanceOf(IOException.class);
        byte[] v1 = goldenHex(GOLDEN_V1);
        byte[] v1Longer = java.util.Arrays.copyOf(v1, v1.length + 1);
        assertThatThrownBy(() -> CommittableSerializer.INSTANCE.deserialize(1, v1Longer))
                .hasMessageContaining("trailing");
    }

    /**
     * Version 1 bytes written by the first version of this serializer still read back. If this
     * fails after a change, the change broke restores of running jobs: add a version instead.
     */
    @Test
    void readsGoldenVersion1Bytes() throws IOException {
        Committable expected = Committable.ofCheckpoint(42, messages());
        byte[] golden;
        try (InputStream in = getClass().getResourceAsStream(GOLDEN_V1)) {
            assertThat(in).as("golden file " + GOLDEN_V1).isNotNull();
            golden = HexFormat.of().parseHex(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).trim());
        }
        assertThat(CommittableSerializer.INSTANCE.deserialize(1, golden)).isEqualTo(expected);
        assertThat(CommittableSerializer.INSTANCE.deserialize(1, golden).table()).isEmpty();
    }

    /**
     * Version 2 bytes, built from the v1 golden file as the serializer's javadoc lays version 2 out
     * (see golden/README), read back and written again. If this fails after a change, the change
     * broke restores of running jobs: add a version instead.
     */
    @Test
    void readsAndWritesGoldenVersion2Bytes() throws IOException {
        assertThat(CommittableSerializer.INSTANCE.getVersion()).isEqualTo(2);
        byte[] golden = goldenHex(GOLDEN_V2);
        assertThat(CommittableSerializer.INSTANCE.deserialize(2, golden)).isEqualTo(goldenV2());
        // The messages inside carry their own serializer version (1 in the golden file, the current one
        // when written now), so writing again reproduces the layout, not the bytes.
        byte[] again = CommittableSerializer.INSTANCE.serialize(goldenV2());
        assertThat(CommittableSerializer.INSTANCE.deserialize(2, again)).isEqualTo(goldenV2());
    }

    /** The committer state of golden file {@code committer-state-v1.hex}. */
    static CommitterState goldenCommitterState() {
        TreeMap<Long, List<CommitMessage>> pending = new TreeMap<>();
        pending.put(5L, messages());
        pending.put(9L, List.of(messages().get(1)));
        return new CommitterState("user-ü", pending);
    }

    private static byte[] goldenHex(String resource) throws IOException {
        try (InputStream in = CommittableSerializerTest.class.getResourceAsStream(resource)) {
            assertThat(in).as("golden file " + resource).isNotNull();
            return HexFormat.of().parseHex(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).trim());
        }
    }

    /**
     * Committer state written by version 1 of {@link CommitterStateSerializer} (the first release of
     * the sink) still restores. If this fails after a change, the change broke restoring running jobs
     * from their checkpoints: add a version instead.
     */
    @Test
    void readsGoldenCommitterStateVersion1Bytes() throws IOException {
        byte[] golden = goldenHex("/golden/committer-state-v1.hex");
        CommitterState back = CommitterStateSerializer.INSTANCE.deserialize(1, golden);
        assertThat(back).isEqualTo(goldenCommitterState());
        assertThat(back.pending().get(5L).get(0).dataIncrement().newFiles().get(0)).isEqualTo(fullFile("data-1"));
    }

    /** Committer state version 2, built from the v1 golden file as the javadoc lays version 2 out. */
    @Test
    void readsAndWritesGoldenCommitterStateVersion2Bytes() throws IOException {
        assertThat(CommitterStateSerializer.INSTANCE.getVersion()).isEqualTo(2);
        byte[] golden = goldenHex("/golden/committer-state-v2.hex");
        assertThat(CommitterStateSerializer.INSTANCE.deserialize(2, golden)).isEqualTo(goldenCommitterState());
        byte[] again = CommitterStateSerializer.INSTANCE.serialize(goldenCommitterState());
        assertThat(CommitterStateSerializer.INSTANCE.deserialize(2, again)).isEqualTo(goldenCommitterState());
        assertThatThrownBy(() -> CommitterStateSerializer.INSTANCE.deserialize(3, golden))
                .hasMessageContaining("version 3");
    }

    /**
     * Version 2 as written now, with the messages in their current version (2): read back field by
     * field, and written again to the same bytes. If this fails after a change, the change altered a
     * checkpointed format: add a version (of the committable or of the messages) instead.
     */
    @Test
    void currentCommittableBytesAreGolden() throws IOException {
        assertThat(CommittableSerializer.INSTANCE.getVersion()).isEqualTo(2);
        byte[] written = CommittableSerializer.INSTANCE.serialize(goldenV2());
        byte[] golden = GoldenFiles.read("committable-v2-messages-v2.hex", () -> written);
        Committable back = CommittableSerializer.INSTANCE.deserialize(2, golden);
        assertThat(back.table()).contains("default.orders");
        assertThat(back.checkpointId()).isEqualTo(42);
        assertThat(back.isEndOfInput()).isFalse();
        assertSameMessages(back.messages(), messages());
        assertThat(back).isEqualTo(goldenV2());
        GoldenFiles.assertWrittenAs("committable-v2-messages-v2.hex", written);
    }

    /** Committer state version 2 as written now (messages version 2): read back and written again. */
    @Test
    void currentCommitterStateBytesAreGolden() throws IOException {
        byte[] written = CommitterStateSerializer.INSTANCE.serialize(goldenCommitterState());
        byte[] golden = GoldenFiles.read("committer-state-v2-messages-v2.hex", () -> written);
        CommitterState back = CommitterStateSerializer.INSTANCE.deserialize(2, golden);
        assertThat(back.commitUser()).isEqualTo("user-ü");
        assertThat(back.pending().keySet()).containsExactly(5L, 9L);
        assertSameMessages(back.pending().get(5L), messages());
        assertSameMessages(back.pending().get(9L), List.of(messages().get(1)));
        assertThat(back).isEqualTo(goldenCommitterState());
        GoldenFiles.assertWrittenAs("committer-state-v2-messages-v2.hex", written);
    }

    /** Compares commit messages field by field, so that a failure names the field. */
    public static void assertSameMessages(List<CommitMessage> actual, List<CommitMessage> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            CommitMessage a = actual.get(i);
            CommitMessage e = expected.get(i);
            assertThat(a.partition()).as("message %d partition", i).isEqualTo(e.partition());
            assertThat(a.bucket()).as("message %d bucket", i).isEqualTo(e.bucket());
            assertThat(a.totalBuckets()).as("message %d total buckets", i).isEqualTo(e.totalBuckets());
            assertThat(a.dataIncrement().newFiles()).as("message %d new files", i)
                    .containsExactlyElementsOf(e.dataIncrement().newFiles());
            assertThat(a.dataIncrement().deletedFiles()).as("message %d deleted files", i)
                    .containsExactlyElementsOf(e.dataIncrement().deletedFiles());
            assertThat(a.dataIncrement().changelogFiles()).as("message %d changelog files", i)
                    .containsExactlyElementsOf(e.dataIncrement().changelogFiles());
            assertThat(a.dataIncrement().newIndexFiles()).as("message %d new index files", i)
                    .containsExactlyElementsOf(e.dataIncrement().newIndexFiles());
            assertThat(a.dataIncrement().deletedIndexFiles()).as("message %d deleted index files", i)
                    .containsExactlyElementsOf(e.dataIncrement().deletedIndexFiles());
            assertThat(a.compactIncrement()).as("message %d compaction", i).isEqualTo(e.compactIncrement());
            assertThat(a).as("message %d", i).isEqualTo(e);
        }
    }
}
