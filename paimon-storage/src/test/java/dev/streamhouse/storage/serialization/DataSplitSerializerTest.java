package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.table.source.DataSplit;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import static dev.streamhouse.storage.serialization.SerializationFixtures.golden;
import static dev.streamhouse.storage.serialization.SerializationFixtures.split;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DataSplitSerializerTest {
    private static final DataSplitSerializer SERIALIZER = DataSplitSerializer.INSTANCE;

    @Test
    void splitsRoundTripWithEveryField() throws IOException {
        DataSplit delta = split();
        DataSplit full = new DataSplit(3, BinaryRow.EMPTY_ROW, 0, -1, List.of(), false);
        for (DataSplit s : List.of(delta, full)) {
            DataSplit back = SERIALIZER.deserialize(SERIALIZER.serialize(s));
            assertThat(back).isEqualTo(s);
        }
        assertThat(SERIALIZER.deserialize(SERIALIZER.serialize(delta)).delta()).isTrue();
        assertThat(SERIALIZER.deserialize(SERIALIZER.serialize(full)).rawConvertible()).isFalse();
    }

    /**
     * Bytes written by version 1. If this fails after a change, the change broke restoring
     * checkpoints that hold splits: add a version instead.
     */
    @Test
    void version1WrittenOnceStaysReadable() throws IOException {
        assertThat(SERIALIZER.version()).isEqualTo(1);
        byte[] golden = golden("data-split-v1.hex");
        assertThat(SERIALIZER.deserialize(golden)).isEqualTo(split());
        assertThat(SERIALIZER.serialize(split())).isEqualTo(golden);
    }

    @Test
    void unknownVersionsAndCorruptBytesAreRefused() {
        byte[] bytes = SERIALIZER.serialize(split());
        byte[] newer = Arrays.copyOf(bytes, bytes.length);
        newer[3] = 9;
        assertThatThrownBy(() -> SERIALIZER.deserialize(newer))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("serialization version 9")
                .hasMessageContaining("reads versions 1 to 1");
        assertThatThrownBy(() -> SERIALIZER.deserialize(Arrays.copyOf(bytes, bytes.length + 1)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("snapshot 7, bucket 3")
                .hasMessageContaining("1 unexpected trailing bytes");
        assertThatThrownBy(() -> SERIALIZER.deserialize(Arrays.copyOf(bytes, bytes.length - 1)))
                .isInstanceOf(IOException.class);
    }
}
