package dev.streamhouse.storage.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Random;

/** Our RLE / bit-packing hybrid decoder against parquet-mr's encoder, and on malformed input. */
class RleBitPackedDecoderTest {

    private static byte[] encode(int bitWidth, int[] values) throws IOException {
        RunLengthBitPackingHybridEncoder encoder =
                new RunLengthBitPackingHybridEncoder(bitWidth, 64, 1 << 16, HeapByteBufferAllocator.getInstance());
        for (int v : values) {
            encoder.writeInt(v);
        }
        BytesInput bytes = encoder.toBytes();
        return bytes.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 7, 8, 9, 13, 17, 24, 31})
    void decodesWhatParquetMrEncodes(int bitWidth) throws IOException {
        Random random = new Random(bitWidth);
        int[] values = new int[5_000];
        long bound = 1L << bitWidth;
        for (int i = 0; i < values.length; ) {
            // alternate long repeats (RLE runs) and noise (bit-packed runs)
            int v = (int) (random.nextLong() & (bound - 1));
            int repeat = random.nextBoolean() ? 1 + random.nextInt(40) : 1;
            for (int k = 0; k < repeat && i < values.length; k++) {
                values[i++] = random.nextBoolean() && repeat == 1 ? (int) (random.nextLong() & (bound - 1)) : v;
            }
        }
        byte[] data = encode(bitWidth, values);

        RleBitPackedDecoder all = new RleBitPackedDecoder(bitWidth, data, 0, data.length);
        int[] out = new int[values.length];
        all.read(out, 0, 1_000);
        all.skip(1_234);
        all.read(out, 2_234, values.length - 2_234);
        for (int i = 0; i < values.length; i++) {
            if (i < 1_000 || i >= 2_234) {
                assertThat(out[i]).as("value %s", i).isEqualTo(values[i]);
            }
        }

        RleBitPackedDecoder single = new RleBitPackedDecoder(bitWidth, data, 0, data.length);
        for (int i = 0; i < values.length; i++) {
            assertThat(single.readInt()).isEqualTo(values[i]);
        }
    }

    @Test
    void runsCanBeUsedWhole() throws IOException {
        int[] values = new int[100];
        java.util.Arrays.fill(values, 0, 60, 1);
        byte[] data = encode(1, values);
        RleBitPackedDecoder decoder = new RleBitPackedDecoder(1, data, 0, data.length);
        assertThat(decoder.runLength(1_000)).isEqualTo(60);
        assertThat(decoder.inRleRun()).isTrue();
        assertThat(decoder.runValue()).isEqualTo(1);
        decoder.skip(60);
        assertThat(decoder.runLength(1_000)).isEqualTo(40);
        assertThat(decoder.runValue()).isZero();
    }

    @Test
    void dataEndingEarlyFails() throws IOException {
        int[] values = new int[50];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 7;
        }
        byte[] data = encode(3, values);
        RleBitPackedDecoder truncated = new RleBitPackedDecoder(3, data, 0, data.length / 2);
        assertThatThrownBy(() -> truncated.read(new int[50], 0, 50)).isInstanceOf(IOException.class);
        RleBitPackedDecoder exhausted = new RleBitPackedDecoder(3, data, 0, data.length);
        exhausted.skip(56); // a bit-packed run holds whole groups of 8
        assertThatThrownBy(exhausted::readInt).isInstanceOf(IOException.class)
                .hasMessageContaining("ended before all values were read");
        assertThatThrownBy(() -> new RleBitPackedDecoder(33, data, 0, data.length))
                .isInstanceOf(IllegalArgumentException.class);
    }

}
