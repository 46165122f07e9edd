package dev.streamhouse.storage.format;

import dev.streamhouse.storage.data.InternalRow;

import java.io.Closeable;
import java.io.IOException;

/**
 * Writes the rows of one data file into a stream. Not thread-safe. {@link #close()} finishes the file
 * (footer) but does not close the underlying stream's owner's resources beyond the stream itself.
 */
public interface FormatWriter extends Closeable {

    void add(InternalRow row) throws IOException;

    /** Bytes written so far, including buffered data not yet flushed; used to roll files. */
    long estimatedLength() throws IOException;

    /**
     * Per-column statistics of the finished file, in the writer's row type order. Only valid after
     * {@link #close()}.
     */
    FieldStats[] fieldStats();
}
