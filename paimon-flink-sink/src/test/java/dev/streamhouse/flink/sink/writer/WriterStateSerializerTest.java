package dev.streamhouse.flink.sink.writer;

import dev.streamhouse.flink.common.testutils.GoldenFiles;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WriterStateSerializerTest {
    private static final WriterStateSerializer SERIALIZER = WriterStateSerializer.INSTANCE;

    /** The writer state of golden file {@code writer-state-v1.hex}. */
    static WriterState goldenState() {
        return new WriterState("commit-user-ü-✓", 1_700_000_000_042L);
    }

    @Test
    void roundTrips() throws IOException {
        for (WriterState state : new WriterState[] {goldenState(), new WriterState("", -1),
                new WriterState("u", Long.MAX_VALUE)}) {
            assertThat(SERIALIZER.deserialize(SERIALIZER.getVersion(), SERIALIZER.serialize(state))).isEqualTo(state);
        }
    }

    /**
     * Version 1 (current) bytes read back field by field and are what the serializer writes. If this
     * fails after a change, the change broke restoring running jobs: add a version instead.
     */
    @Test
    void version1BytesAreGolden() throws IOException {
        assertThat(SERIALIZER.getVersion()).isEqualTo(1);
        byte[] written = SERIALIZER.serialize(goldenState());
        WriterState back = SERIALIZER.deserialize(1, GoldenFiles.read("writer-state-v1.hex", () -> written));
        assertThat(back.commitUser()).isEqualTo("commit-user-ü-✓");
        assertThat(back.lastHandedOut()).isEqualTo(1_700_000_000_042L);
        GoldenFiles.assertWrittenAs("writer-state-v1.hex", written);
    }

    @Test
    void refusesUnknownVersionsAndCorruptBytes() throws IOException {
        byte[] bytes = SERIALIZER.serialize(goldenState());
        assertThatThrownBy(() -> SERIALIZER.deserialize(2, bytes)).hasMessageContaining("version 2");
        assertThatThrownBy(() -> SERIALIZER.deserialize(1, Arrays.copyOf(bytes, bytes.length + 1)))
                .hasMessageContaining("trailing");
        assertThatThrownBy(() -> SERIALIZER.deserialize(1, Arrays.copyOf(bytes, bytes.length - 1)))
                .isInstanceOf(IOException.class);
    }
}
