package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.split.PaimonSplitSerializer;
import dev.streamhouse.flink.source.testutils.Splits;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PaimonEnumeratorStateSerializerTest {
    private static final PaimonEnumeratorStateSerializer SERIALIZER =
            new PaimonEnumeratorStateSerializer(PaimonSplitSerializer.INSTANCE);

    static PaimonEnumeratorState goldenState() {
        return new PaimonEnumeratorState(List.of(Splits.deterministic(), Splits.empty("1-1")));
    }

    @Test
    void roundTripsEmptyAndNonEmptyStates() throws Exception {
        for (PaimonEnumeratorState state : List.of(new PaimonEnumeratorState(List.of()), goldenState())) {
            assertThat(SERIALIZER.deserialize(SERIALIZER.getVersion(), SERIALIZER.serialize(state))).isEqualTo(state);
        }
    }

    @Test
    void version1WrittenOnceStaysReadable() throws Exception {
        byte[] golden;
        try (InputStream in = getClass().getResourceAsStream("/golden/paimon-enumerator-state-v1.bin")) {
            assertThat(in).as("golden file").isNotNull();
            golden = in.readAllBytes();
        }
        assertThat(SERIALIZER.deserialize(1, golden)).isEqualTo(goldenState());
    }

    @Test
    void refusesVersionsItDoesNotKnow() {
        assertThatThrownBy(() -> SERIALIZER.deserialize(7, SERIALIZER.serialize(goldenState())))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("serializer version 7");
    }
}
