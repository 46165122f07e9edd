package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.commit.CommitMessage;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import static dev.streamhouse.storage.serialization.SerializationFixtures.fullFile;
import static dev.streamhouse.storage.serialization.SerializationFixtures.golden;
import static dev.streamhouse.storage.serialization.SerializationFixtures.messages;
import static dev.streamhouse.storage.serialization.SerializationFixtures.messagesWithCompactIndexFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommitMessageSerializerTest {
    private static final CommitMessageSerializer SERIALIZER = CommitMessageSerializer.INSTANCE;

    private static byte[] list(List<CommitMessage> messages) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            SERIALIZER.serializeList(messages, out);
        }
        return bytes.toByteArray();
    }

    private static DataInputStream input(byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }

    @Test
    void messagesRoundTripWithEveryField() throws IOException {
        for (CommitMessage m : messagesWithCompactIndexFiles()) {
            CommitMessage back = SERIALIZER.deserialize(SERIALIZER.serialize(m));
            assertThat(back).isEqualTo(m);
        }
        CommitMessage back = SERIALIZER.deserialize(SERIALIZER.serialize(messages().get(0)));
        // DataFileMeta.equals compares every field, the byte array of the embedded index by content.
        assertThat(back.dataIncrement().newFiles().get(0)).isEqualTo(fullFile("data-1"));
        assertThat(back.dataIncrement().newIndexFiles()).isEqualTo(messages().get(0).dataIncrement().newIndexFiles());
        assertThat(back.compactIncrement()).isEqualTo(messages().get(0).compactIncrement());
    }

    @Test
    void listsRoundTripAndReadExactlyTheirBytes() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            SERIALIZER.serializeList(messages(), out);
            SERIALIZER.serializeList(List.of(), out);
            out.writeLong(99);
        }
        DataInputStream in = input(bytes.toByteArray());
        assertThat(SERIALIZER.deserializeList(in)).isEqualTo(messages());
        assertThat(SERIALIZER.deserializeList(in)).isEmpty();
        assertThat(in.readLong()).isEqualTo(99);
    }

    /**
     * Bytes written by version 1. If this fails after a change, the change broke reading commit
     * messages kept in engines' checkpoints: add a version instead.
     */
    @Test
    void version1WrittenOnceStaysReadable() throws IOException {
        byte[] golden = golden("commit-messages-v1.hex");
        assertThat(SERIALIZER.deserializeList(input(golden))).isEqualTo(messages());

        byte[] one = golden("commit-message-v1.hex");
        assertThat(SERIALIZER.deserialize(one)).isEqualTo(messages().get(0));
        byte[] body = Arrays.copyOfRange(golden, 4, golden.length);
        assertThat(SERIALIZER.deserializeListBody(1, input(body))).isEqualTo(messages());
    }

    /** Bytes written by version 2, the current one; same rule as for version 1. */
    @Test
    void version2WrittenOnceStaysReadable() throws IOException {
        assertThat(SERIALIZER.version()).isEqualTo(2);
        List<CommitMessage> messages = messagesWithCompactIndexFiles();
        byte[] golden = golden("commit-messages-v2.hex");
        assertThat(SERIALIZER.deserializeList(input(golden))).isEqualTo(messages);
        assertThat(list(messages)).isEqualTo(golden);

        byte[] one = golden("commit-message-v2.hex");
        assertThat(SERIALIZER.deserialize(one)).isEqualTo(messages.get(0));
        assertThat(SERIALIZER.serialize(messages.get(0))).isEqualTo(one);
    }

    @Test
    void aListBodyReadsAtTheVersionItsEnclosingFormatRecorded() throws IOException {
        byte[] withVersion = list(messages());
        byte[] body = Arrays.copyOfRange(withVersion, 4, withVersion.length);
        assertThat(SERIALIZER.deserializeListBody(2, input(body))).isEqualTo(messages());
    }

    @Test
    void unknownVersionsAreRefused() {
        byte[] bytes = SERIALIZER.serialize(messages().get(1));
        bytes[3] = 3;
        assertThatThrownBy(() -> SERIALIZER.deserialize(bytes))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("serialization version 3")
                .hasMessageContaining("reads versions 1 to 2");
        assertThatThrownBy(() -> SERIALIZER.deserializeListBody(0, input(new byte[4])))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("serialization version 0");
    }

    @Test
    void corruptBytesAreRefused() {
        byte[] bytes = SERIALIZER.serialize(CommitMessage.ofNewFiles(BinaryRow.EMPTY_ROW, 0, 1, List.of()));
        assertThatThrownBy(() -> SERIALIZER.deserialize(Arrays.copyOf(bytes, bytes.length + 2)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("2 unexpected trailing bytes");
        assertThatThrownBy(() -> SERIALIZER.deserialize(Arrays.copyOf(bytes, bytes.length - 1)))
                .isInstanceOf(IOException.class);
        byte[] negative = Arrays.copyOf(bytes, bytes.length);
        negative[4] = (byte) 0x80; // the length of the partition row
        assertThatThrownBy(() -> SERIALIZER.deserialize(negative))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("negative length");
    }
}
