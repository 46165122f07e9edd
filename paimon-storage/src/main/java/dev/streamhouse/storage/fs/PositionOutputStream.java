package dev.streamhouse.storage.fs;

import java.io.IOException;
import java.io.OutputStream;

/** An output stream that knows how many bytes it has written. */
public abstract class PositionOutputStream extends OutputStream {

    /** Bytes written so far. */
    public abstract long position() throws IOException;
}
