package dev.streamhouse.storage.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.Test;

/** UTF-8 strings: unsigned byte order (= code point order), code-point prefixes and counts. */
class BinaryStringTest {

    private static BinaryString s(String v) {
        return BinaryString.fromString(v);
    }

    @Test
    void orderIsUnsignedBytewiseSoNonAsciiSortsAfterAscii() {
        // Signed bytes would put every non-ASCII character (lead byte >= 0x80) before 'z'.
        assertThat(s("z")).isLessThan(s("é"));
        assertThat(s("é")).isLessThan(s("日"));
        assertThat(s("日")).isLessThan(s("🙂"));
        assertThat(s("~")).isLessThan(s("\u0080"));
    }

    @Test
    void orderIsCodePointOrderNotJavaUtf16Order() {
        String bmpHigh = "\uFFFD";
        String supplementary = "🙂"; // U+1F642, a surrogate pair in UTF-16

        assertThat(bmpHigh.compareTo(supplementary)).isPositive();
        assertThat(s(bmpHigh).compareTo(s(supplementary))).isNegative();
    }

    @Test
    void sortingManyStringsMatchesCodePointOrder() {
        List<String> values = List.of("", "a", "ab", "abc", "b", "Z", "é", "ée", "e\u0301", "日本", "🙂", "\uFFFD", "a\u0000");
        List<BinaryString> binary = new ArrayList<>();
        values.forEach(v -> binary.add(s(v)));
        binary.sort(Comparator.naturalOrder());
        List<String> expected = new ArrayList<>(values);
        expected.sort(BinaryStringTest::compareCodePoints);

        assertThat(binary).extracting(BinaryString::toString).containsExactlyElementsOf(expected);
    }

    private static int compareCodePoints(String a, String b) {
        int[] x = a.codePoints().toArray();
        int[] y = b.codePoints().toArray();
        return Arrays.compare(x, y);
    }

    @Test
    void aCommonPrefixSortsShorterFirst() {
        assertThat(s("abc")).isLessThan(s("abcd"));
        assertThat(s("")).isLessThan(s("a"));
        assertThat(s("abc").compareTo(s("abc"))).isZero();
    }

    @Test
    void slicesCompareAndEqualByTheirOwnBytesOnly() {
        byte[] buffer = "xxabcyy".getBytes(StandardCharsets.UTF_8);
        BinaryString slice = BinaryString.fromBytes(buffer, 2, 3);

        assertThat(slice).isEqualTo(s("abc"));
        assertThat(slice.hashCode()).isEqualTo(s("abc").hashCode());
        assertThat(slice.compareTo(s("abc"))).isZero();
        assertThat(slice.toString()).isEqualTo("abc");
        assertThat(slice.toBytes()).containsExactly('a', 'b', 'c');
        assertThat(slice.copy().rawBytes()).hasSize(3);
    }

    @Test
    void numCharsCountsCodePoints() {
        assertThat(s("").numChars()).isZero();
        assertThat(s("abc").numChars()).isEqualTo(3);
        assertThat(s("été").numChars()).isEqualTo(3);
        assertThat(s("été").byteLength()).isEqualTo(5);
        assertThat(s("a🙂b").numChars()).isEqualTo(3);
        assertThat(s("日本語").numChars()).isEqualTo(3);
    }

    @Test
    void prefixCharsCutsAtCodePointBoundaries() {
        assertThat(s("été!").prefixChars(2)).isEqualTo(s("ét"));
        assertThat(s("🙂🙃x").prefixChars(1)).isEqualTo(s("🙂"));
        assertThat(s("🙂🙃x").prefixChars(2).byteLength()).isEqualTo(8);
        assertThat(s("日本語テキスト").prefixChars(3)).isEqualTo(s("日本語"));
        assertThat(s("abc").prefixChars(0)).isEqualTo(BinaryString.EMPTY);
    }

    @Test
    void prefixCharsOfAShortStringIsTheWholeString() {
        BinaryString value = s("été");

        assertThat(value.prefixChars(3)).isEqualTo(value);
        assertThat(value.prefixChars(16)).isEqualTo(value);
        assertThat(BinaryString.EMPTY.prefixChars(4)).isEqualTo(BinaryString.EMPTY);
    }

    @Test
    void prefixOfASliceStaysWithinTheSlice() {
        byte[] buffer = "..été..".getBytes(StandardCharsets.UTF_8);
        BinaryString slice = BinaryString.fromBytes(buffer, 2, 5);

        assertThat(slice.prefixChars(2)).isEqualTo(s("ét"));
        assertThat(slice.prefixChars(5)).isEqualTo(s("été"));
    }

    @Test
    void fromStringOfNullIsNull() {
        assertThat(BinaryString.fromString(null)).isNull();
    }

    @Test
    void copyToWritesTheBytesAtTheOffset() {
        byte[] target = new byte[6];
        s("été").copyTo(target, 1);

        assertThat(new String(target, 1, 5, StandardCharsets.UTF_8)).isEqualTo("été");
        assertThat(target[0]).isZero();
    }
}
