package dev.streamhouse.storage.mergetree.buffer;

import net.jpountz.lz4.LZ4BlockInputStream;
import net.jpountz.lz4.LZ4Factory;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reads the records of a {@link SpilledRun} back in file order. Errors name the file. */
final class SpilledRunReader implements RecordCursor {
    private final SpilledRun run;
    private final InputStream in;
    private byte[] buffer = new byte[256];
    private long read;

    private SpilledRunReader(SpilledRun run, InputStream in) {
        this.run = run;
        this.in = in;
    }

    static SpilledRunReader open(SpilledRun run) throws IOException {
        try {
            return new SpilledRunReader(run, new LZ4BlockInputStream(
                    new FileInputStream(run.path().toFile()), LZ4Factory.fastestInstance().fastDecompressor()));
        } catch (IOException e) {
            throw new IOException("Cannot open write-buffer spill file " + run.path() + ": " + e, e);
        }
    }

    @Override
    public boolean advance() throws IOException {
        if (read == run.records()) {
            return false;
        }
        try {
            readFully(0, 4);
            int size = RecordLayout.recordSize(buffer, 0);
            if (size < RecordLayout.HEADER_SIZE) {
                throw new IOException("record " + read + " has an invalid length " + size);
            }
            if (size > buffer.length) {
                byte[] grown = new byte[Math.max(size, buffer.length * 2)];
                System.arraycopy(buffer, 0, grown, 0, 4);
                buffer = grown;
            }
            readFully(4, size - 4);
            read++;
            return true;
        } catch (IOException | RuntimeException e) {
            throw new IOException("Cannot read write-buffer spill file " + run.path() + ": " + e, e);
        }
    }

    private void readFully(int offset, int length) throws IOException {
        while (length > 0) {
            int n = in.read(buffer, offset, length);
            if (n < 0) {
                throw new IOException("it ends after " + read + " of " + run.records() + " records");
            }
            offset += n;
            length -= n;
        }
    }

    @Override
    public byte[] buffer() {
        return buffer;
    }

    @Override
    public int offset() {
        return 0;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
