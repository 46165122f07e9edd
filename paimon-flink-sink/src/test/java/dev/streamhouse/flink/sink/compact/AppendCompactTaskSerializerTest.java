package dev.streamhouse.flink.sink.compact;

import dev.streamhouse.flink.common.testutils.GoldenFiles;
import dev.streamhouse.flink.sink.committable.CommittableSerializerTest;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.AppendCompactTask;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The append compaction tasks a coordinator sends to its workers: in-flight records that unaligned
 * checkpoints persist, so their format is versioned and golden like state.
 */
class AppendCompactTaskSerializerTest {
    private static final AppendCompactTaskTypeInfo.Serializer SERIALIZER = AppendCompactTaskTypeInfo.Serializer.INSTANCE;

    /** The task of golden file {@code append-compact-task-v1.hex}: a file with every field set, one with none. */
    static AppendCompactTask goldenTask() {
        CommitMessage message = CommittableSerializerTest.messages().get(0);
        return new AppendCompactTask(message.partition(), message.dataIncrement().newFiles());
    }

    @Test
    void version1BytesAreGolden() throws IOException {
        assertThat(SERIALIZER.getVersion()).isEqualTo(1);
        byte[] written = SERIALIZER.serialize(goldenTask());
        AppendCompactTask back = SERIALIZER.deserialize(1, GoldenFiles.read("append-compact-task-v1.hex", () -> written));
        assertThat(back.partition()).isEqualTo(goldenTask().partition());
        assertThat(back.files()).hasSize(2).containsExactlyElementsOf(goldenTask().files());
        assertThat(back).isEqualTo(goldenTask());
        GoldenFiles.assertWrittenAs("append-compact-task-v1.hex", written);
        assertThatThrownBy(() -> SERIALIZER.deserialize(2, written)).hasMessageContaining("version 2");
    }
}
