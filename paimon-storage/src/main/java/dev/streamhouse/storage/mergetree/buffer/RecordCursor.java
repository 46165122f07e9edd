package dev.streamhouse.storage.mergetree.buffer;

import java.io.Closeable;
import java.io.IOException;

/**
 * Iterates buffered records in key order (then sequence number). The current record is a contiguous
 * {@link RecordLayout} at {@link #offset()} of {@link #buffer()}, valid until the next {@link #advance()}.
 */
interface RecordCursor extends Closeable {

    /** Moves to the next record; false at the end (then the cursor has no current record). */
    boolean advance() throws IOException;

    byte[] buffer();

    int offset();

    @Override
    default void close() throws IOException {}
}
