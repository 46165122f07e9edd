package dev.streamhouse.storage.utils;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class MurmurHashTest {

    /** Hash codes Apache Paimon 1.3.1's {@code BinaryString.fromString(s).hashCode()} returns. */
    @Test
    void hashBytesIsPaimonsStringHash() {
        assertThat(hash("")).isEqualTo(142593372);
        assertThat(hash("a")).isEqualTo(1485273170);
        assertThat(hash("abc")).isEqualTo(1322437556);
        assertThat(hash("abcd")).isEqualTo(-396302900);
        assertThat(hash("abcde")).isEqualTo(814637928);
        assertThat(hash("naïve")).isEqualTo(-950767612);
        assertThat(hash("日本語テキスト")).isEqualTo(-675756566);
    }

    @Test
    void hashBytesHonoursTheRange() {
        byte[] padded = "xxabcdeyy".getBytes(StandardCharsets.UTF_8);
        assertThat(MurmurHash.hashBytes(padded, 2, 5)).isEqualTo(hash("abcde"));
    }

    @Test
    void wholeWordsHashAlikeBothWays() {
        byte[] eight = "abcdefgh".getBytes(StandardCharsets.UTF_8);
        assertThat(MurmurHash.hashBytes(eight, 0, 8)).isEqualTo(MurmurHash.hashBytesByWords(eight, 0, 8));
    }

    private static int hash(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return MurmurHash.hashBytes(b, 0, b.length);
    }
}
