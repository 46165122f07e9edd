package dev.streamhouse.storage.fs;

import java.io.IOException;
import java.io.InputStream;

/** An input stream that can jump to any byte position of the file. */
public abstract class SeekableInputStream extends InputStream {

    /** Moves to {@code position} bytes from the start of the file. */
    public abstract void seek(long position) throws IOException;

    /** The current position in bytes from the start of the file. */
    public abstract long position() throws IOException;

    /** Reads exactly {@code len} bytes or fails with EOFException. */
    public void readFully(byte[] b, int off, int len) throws IOException {
        int n = 0;
        while (n < len) {
            int r = read(b, off + n, len - n);
            if (r < 0) {
                throw new java.io.EOFException("Reached end of stream after " + n + " of " + len + " bytes");
            }
            n += r;
        }
    }
}
