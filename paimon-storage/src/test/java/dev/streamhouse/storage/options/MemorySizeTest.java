package dev.streamhouse.storage.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Byte sizes written as text with binary (1024-based) units. */
class MemorySizeTest {

    @Test
    void parsesNumbersWithAndWithoutUnits() {
        assertThat(MemorySize.parse("1024").bytes()).isEqualTo(1024);
        assertThat(MemorySize.parse("7 b").bytes()).isEqualTo(7);
        assertThat(MemorySize.parse("7 bytes").bytes()).isEqualTo(7);
        assertThat(MemorySize.parse("64kb").bytes()).isEqualTo(64 * 1024);
        assertThat(MemorySize.parse("3 k").bytes()).isEqualTo(3 * 1024);
        assertThat(MemorySize.parse("128 mb").bytes()).isEqualTo(128L << 20);
        assertThat(MemorySize.parse("128 mebibytes").bytes()).isEqualTo(128L << 20);
        assertThat(MemorySize.parse(" 2 GB ").bytes()).isEqualTo(2L << 30);
        assertThat(MemorySize.parse("1t").bytes()).isEqualTo(1L << 40);
        assertThat(MemorySize.parse("0").bytes()).isZero();
    }

    @Test
    void mebibyteFactoryMatchesParsing() {
        assertThat(MemorySize.ofMebiBytes(8)).isEqualTo(MemorySize.parse("8 mb"));
        assertThat(MemorySize.ofBytes(8 << 20)).isEqualTo(MemorySize.ofMebiBytes(8));
        assertThat(MemorySize.ofBytes(1)).isLessThan(MemorySize.ofBytes(2));
    }

    @Test
    void toStringUsesTheLargestExactUnitAndParsesBack() {
        assertThat(MemorySize.ofMebiBytes(128).toString()).isEqualTo("128 mb");
        assertThat(MemorySize.ofBytes(1L << 30).toString()).isEqualTo("1 gb");
        assertThat(MemorySize.ofBytes(1536).toString()).isEqualTo("1536 bytes");
        assertThat(MemorySize.ofBytes(0).toString()).isEqualTo("0 bytes");
        for (long bytes : List.of(0L, 1L, 1023L, 1024L, 1536L, 8L << 20, 5L << 30, 3L << 40, (3L << 40) + 1)) {
            MemorySize size = MemorySize.ofBytes(bytes);
            assertThat(MemorySize.parse(size.toString())).as(size.toString()).isEqualTo(size);
        }
    }

    @Test
    void rejectsTextThatIsNotASize() {
        assertThatThrownBy(() -> MemorySize.parse("abc"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'abc'");
        assertThatThrownBy(() -> MemorySize.parse(""))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MemorySize.parse("-1 mb"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'-1 mb'");
        assertThatThrownBy(() -> MemorySize.parse("12 parsecs"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown unit 'parsecs'");
        assertThatThrownBy(() -> MemorySize.parse("1.5 mb"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsSizesBeyondALong() {
        assertThatThrownBy(() -> MemorySize.parse("9999999 tb")).isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> MemorySize.parse("99999999999999999999")).isInstanceOf(RuntimeException.class);
    }

    @Test
    void negativeSizesAreRejected() {
        assertThatThrownBy(() -> MemorySize.ofBytes(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    }
}
