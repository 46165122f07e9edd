package dev.streamhouse.storage.format.parquet;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The page decompressors of one Parquet file reader. ZSTD pages, the default of Apache Paimon's and
 * this project's writers, are decompressed in one call from the page's bytes into an array of the
 * page's uncompressed size ({@link ZstdPages}: one zstd-jni context per file), instead of through
 * parquet-mr's stream, which decompresses in chunks through internal buffers (the decompression was
 * more than half of a primary-key read's time that way). Every other codec is parquet-mr's
 * {@link CodecFactory}'s. Reading only: {@link #getCompressor} is refused. Not thread-safe, like the
 * file reader that owns it; {@link #release()} (the reader's close) frees the native contexts.
 */
final class ParquetReadCodecs implements CompressionCodecFactory {
    private final Configuration conf;
    private CodecFactory others;
    private ZstdPages zstd;

    ParquetReadCodecs(Configuration conf) {
        this.conf = conf;
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        if (codec == CompressionCodecName.ZSTD) {
            if (zstd == null) {
                zstd = new ZstdPages();
            }
            return zstd;
        }
        if (others == null) {
            others = new CodecFactory(conf, 0);
        }
        return others.getDecompressor(codec);
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        throw new UnsupportedOperationException("Cannot compress " + codec + " with the codecs of a Parquet reader");
    }

    @Override
    public void release() {
        if (zstd != null) {
            zstd.release();
            zstd = null;
        }
        if (others != null) {
            others.release();
            others = null;
        }
    }

    /** ZSTD pages decompressed in one call each; a page that does not decompress to its size fails. */
    static final class ZstdPages implements BytesInputDecompressor {
        private ZstdDecompressCtx ctx;

        @Override
        public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
            byte[] out = new byte[uncompressedSize];
            ByteBuffer in = bytes.toByteBuffer();
            decompress(in, out, 0, uncompressedSize);
            return BytesInput.from(out);
        }

        /** Like parquet-mr's decompressors: {@code output}'s position moves past the page. */
        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                throws IOException {
            ByteBuffer in = input.duplicate();
            in.limit(Math.min(in.limit(), in.position() + compressedSize));
            byte[] out = new byte[uncompressedSize];
            decompress(in, out, 0, uncompressedSize);
            output.put(out);
        }

        private void decompress(ByteBuffer in, byte[] out, int outOffset, int uncompressedSize) throws IOException {
            byte[] src;
            int srcOffset;
            int srcSize = in.remaining();
            if (in.hasArray()) {
                src = in.array();
                srcOffset = in.arrayOffset() + in.position();
            } else {
                src = new byte[srcSize];
                in.duplicate().get(src);
                srcOffset = 0;
            }
            if (ctx == null) {
                ctx = new ZstdDecompressCtx();
            }
            int n;
            try {
                n = ctx.decompressByteArray(out, outOffset, uncompressedSize, src, srcOffset, srcSize);
            } catch (ZstdException e) {
                throw new IOException("Cannot decompress a ZSTD page of " + srcSize + " bytes: " + e.getMessage(), e);
            }
            if (n != uncompressedSize) {
                throw new IOException("Cannot decompress a ZSTD page of " + srcSize + " bytes: it holds " + n
                        + " bytes, its header says " + uncompressedSize);
            }
        }

        @Override
        public void release() {
            if (ctx != null) {
                ctx.close();
                ctx = null;
            }
        }
    }
}
