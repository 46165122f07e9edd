package dev.streamhouse.storage.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;

/** Pages compressed by parquet-mr's own compressors, decompressed by {@link ParquetReadCodecs}. */
class ParquetReadCodecsTest {
    private final CodecFactory parquetMr = new CodecFactory(new Configuration(false), 0);
    private final ParquetReadCodecs codecs = new ParquetReadCodecs(new Configuration(false));

    @AfterEach
    void release() {
        parquetMr.release();
        codecs.release();
    }

    /** Half random, half repeated bytes: something for ZSTD to compress. */
    private static byte[] page(Random random, int size) {
        byte[] page = new byte[size];
        for (int i = 0; i < size; i++) {
            page[i] = i % 2 == 0 ? (byte) random.nextInt(256) : (byte) (i / 64);
        }
        return page;
    }

    private byte[] compress(CompressionCodecName codec, byte[] page) throws IOException {
        BytesInputCompressor compressor = parquetMr.getCompressor(codec);
        return compressor.compress(BytesInput.from(page)).toByteArray();
    }

    @Test
    void zstdPagesDecompressLikeParquetMrAndFromAnywhereInABuffer() throws IOException {
        Random random = new Random(7);
        BytesInputDecompressor zstd = codecs.getDecompressor(CompressionCodecName.ZSTD);
        assertThat(zstd).isInstanceOf(ParquetReadCodecs.ZstdPages.class);
        for (int size : new int[] {0, 1, 100, 64 * 1024, 1024 * 1024 + 3}) {
            byte[] page = page(random, size);
            byte[] compressed = compress(CompressionCodecName.ZSTD, page);
            // the page in the middle of a larger array, as a column chunk holds its pages
            byte[] chunk = new byte[compressed.length + 20];
            System.arraycopy(compressed, 0, chunk, 11, compressed.length);
            BytesInput slice = BytesInput.from(chunk, 11, compressed.length);
            assertThat(zstd.decompress(slice, size).toByteArray()).as("size %d", size).isEqualTo(page);
            assertThat(parquetMr.getDecompressor(CompressionCodecName.ZSTD)
                    .decompress(BytesInput.from(compressed), size).toByteArray()).isEqualTo(page);

            ByteBuffer input = ByteBuffer.wrap(chunk, 11, compressed.length);
            ByteBuffer output = ByteBuffer.allocate(size + 5);
            output.position(5);
            zstd.decompress(input, compressed.length, output, size);
            assertThat(output.position()).isEqualTo(size + 5);
            assertThat(Arrays.copyOfRange(output.array(), 5, size + 5)).isEqualTo(page);
            ByteBuffer direct = ByteBuffer.allocateDirect(size);
            ByteBuffer directInput = ByteBuffer.allocateDirect(compressed.length).put(compressed).flip();
            zstd.decompress(directInput, compressed.length, direct, size);
            byte[] fromDirect = new byte[size];
            direct.flip().get(fromDirect);
            assertThat(fromDirect).isEqualTo(page);
        }
    }

    @Test
    void aDamagedOrMisSizedZstdPageFailsInsteadOfDecodingGarbage() throws IOException {
        byte[] page = page(new Random(3), 10_000);
        byte[] compressed = compress(CompressionCodecName.ZSTD, page);
        BytesInputDecompressor zstd = codecs.getDecompressor(CompressionCodecName.ZSTD);

        // Damage ZSTD can see (a frame without its magic number); damage inside the compressed data
        // may decode into other bytes, which the page checksums (verified when present) catch.
        byte[] damaged = compressed.clone();
        damaged[0] ^= (byte) 0x5a;
        assertThatThrownBy(() -> zstd.decompress(BytesInput.from(damaged), page.length))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot decompress a ZSTD page of " + compressed.length + " bytes");
        assertThatThrownBy(() -> zstd.decompress(BytesInput.from(compressed), page.length + 1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("it holds " + page.length + " bytes, its header says " + (page.length + 1));
        assertThatThrownBy(() -> zstd.decompress(BytesInput.from(compressed), page.length - 1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot decompress a ZSTD page");
        // the context is still usable after a failure
        assertThat(zstd.decompress(BytesInput.from(compressed), page.length).toByteArray()).isEqualTo(page);
    }

    @Test
    void otherCodecsAreParquetMrsAndCompressingIsRefused() throws IOException {
        byte[] page = page(new Random(5), 5_000);
        for (CompressionCodecName codec : new CompressionCodecName[] {
                CompressionCodecName.SNAPPY, CompressionCodecName.GZIP, CompressionCodecName.UNCOMPRESSED}) {
            BytesInputDecompressor d = codecs.getDecompressor(codec);
            assertThat(d).isNotInstanceOf(ParquetReadCodecs.ZstdPages.class);
            assertThat(d.decompress(BytesInput.from(compress(codec, page)), page.length).toByteArray())
                    .as("%s", codec).isEqualTo(page);
        }
        assertThatThrownBy(() -> codecs.getCompressor(CompressionCodecName.ZSTD))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
