package dev.streamhouse.storage.reader;

import java.io.IOException;

/** The records of one batch. */
public interface RecordIterator<T> {

    /** The next record, or null at the end of the batch. */
    T next() throws IOException;

    /** Called when the batch is done; its records must no longer be used. */
    void releaseBatch();
}
