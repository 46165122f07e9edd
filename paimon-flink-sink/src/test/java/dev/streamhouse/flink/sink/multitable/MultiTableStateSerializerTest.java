package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.flink.common.testutils.GoldenFiles;
import dev.streamhouse.flink.sink.committable.CommittableSerializerTest;
import dev.streamhouse.storage.commit.CommitMessage;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Round trips and golden files of the multi-table sink's writer and committer state. */
class MultiTableStateSerializerTest {
    private static final MultiTableWriterState.Serializer WRITER = MultiTableWriterState.Serializer.INSTANCE;
    private static final MultiTableCommitterState.Serializer COMMITTER = MultiTableCommitterState.Serializer.INSTANCE;

    /** The writer state of golden file {@code multi-table-writer-state-v1.hex}. */
    static MultiTableWriterState goldenWriterState() {
        return new MultiTableWriterState("user-ü", Map.of("shop.orders", 7L, "shop.ärger", -1L, "crm.people", 12L));
    }

    /**
     * The committer state of golden file {@code multi-table-committer-state-v1.hex}: two checkpoints,
     * the first with two tables (one with no messages), the second with one.
     */
    static MultiTableCommitterState goldenCommitterState() {
        List<CommitMessage> messages = CommittableSerializerTest.messages();
        NavigableMap<Long, Map<String, List<CommitMessage>>> pending = new TreeMap<>();
        pending.put(5L, Map.of("shop.orders", messages, "shop.ärger", List.of()));
        pending.put(9L, Map.of("crm.people", List.of(messages.get(1))));
        return new MultiTableCommitterState("user-ü", pending);
    }

    @Test
    void writerStatesRoundTrip() throws IOException {
        for (MultiTableWriterState state : List.of(goldenWriterState(), new MultiTableWriterState("", Map.of()))) {
            assertThat(WRITER.deserialize(WRITER.getVersion(), WRITER.serialize(state))).isEqualTo(state);
        }
    }

    @Test
    void committerStatesRoundTrip() throws IOException {
        for (MultiTableCommitterState state : List.of(goldenCommitterState(),
                new MultiTableCommitterState("u", new TreeMap<>()))) {
            assertThat(COMMITTER.deserialize(COMMITTER.getVersion(), COMMITTER.serialize(state))).isEqualTo(state);
        }
    }

    /**
     * Version 1 (current) writer state bytes read back field by field and are what the serializer
     * writes (tables by name). If this fails after a change, add a version instead.
     */
    @Test
    void writerStateVersion1BytesAreGolden() throws IOException {
        assertThat(WRITER.getVersion()).isEqualTo(1);
        byte[] written = WRITER.serialize(goldenWriterState());
        MultiTableWriterState back = WRITER.deserialize(1,
                GoldenFiles.read("multi-table-writer-state-v1.hex", () -> written));
        assertThat(back.commitUser()).isEqualTo("user-ü");
        assertThat(back.lastHandedOut()).containsOnly(Map.entry("shop.orders", 7L), Map.entry("shop.ärger", -1L),
                Map.entry("crm.people", 12L));
        GoldenFiles.assertWrittenAs("multi-table-writer-state-v1.hex", written);
    }

    /** Version 1 (current) committer state bytes, messages in their version 2, read back and written again. */
    @Test
    void committerStateVersion1BytesAreGolden() throws IOException {
        assertThat(COMMITTER.getVersion()).isEqualTo(1);
        byte[] written = COMMITTER.serialize(goldenCommitterState());
        MultiTableCommitterState back = COMMITTER.deserialize(1,
                GoldenFiles.read("multi-table-committer-state-v1.hex", () -> written));
        assertThat(back.commitUser()).isEqualTo("user-ü");
        assertThat(back.pending().keySet()).containsExactly(5L, 9L);
        assertThat(back.pending().get(5L).keySet()).containsExactlyInAnyOrder("shop.orders", "shop.ärger");
        CommittableSerializerTest.assertSameMessages(back.pending().get(5L).get("shop.orders"),
                CommittableSerializerTest.messages());
        assertThat(back.pending().get(5L).get("shop.ärger")).isEmpty();
        assertThat(back.pending().get(9L).keySet()).containsExactly("crm.people");
        CommittableSerializerTest.assertSameMessages(back.pending().get(9L).get("crm.people"),
                List.of(CommittableSerializerTest.messages().get(1)));
        assertThat(back).isEqualTo(goldenCommitterState());
        GoldenFiles.assertWrittenAs("multi-table-committer-state-v1.hex", written);
    }

    @Test
    void refusesUnknownVersionsAndCorruptBytes() throws IOException {
        byte[] writer = WRITER.serialize(goldenWriterState());
        assertThatThrownBy(() -> WRITER.deserialize(2, writer)).hasMessageContaining("version 2");
        assertThatThrownBy(() -> WRITER.deserialize(1, Arrays.copyOf(writer, writer.length + 1)))
                .hasMessageContaining("trailing");
        byte[] committer = COMMITTER.serialize(goldenCommitterState());
        assertThatThrownBy(() -> COMMITTER.deserialize(2, committer)).hasMessageContaining("version 2");
        assertThatThrownBy(() -> COMMITTER.deserialize(1, Arrays.copyOf(committer, committer.length + 1)))
                .hasMessageContaining("trailing");
        assertThatThrownBy(() -> COMMITTER.deserialize(1, Arrays.copyOf(committer, committer.length - 1)))
                .isInstanceOf(IOException.class);
    }
}
