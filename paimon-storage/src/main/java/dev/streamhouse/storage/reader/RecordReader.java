package dev.streamhouse.storage.reader;

import java.io.Closeable;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * Reads records in batches. A batch's records may be reused objects that are only valid until the
 * next call of {@link RecordIterator#next()}; copy what must be kept.
 */
public interface RecordReader<T> extends Closeable {

    /** The next batch, or null at the end. The previous batch must have been released. */
    RecordIterator<T> readBatch() throws IOException;

    /** Applies {@code action} to every remaining record, then closes the reader. */
    default void forEachRemaining(Consumer<? super T> action) throws IOException {
        try {
            RecordIterator<T> batch;
            while ((batch = readBatch()) != null) {
                T record;
                while ((record = batch.next()) != null) {
                    action.accept(record);
                }
                batch.releaseBatch();
            }
        } finally {
            close();
        }
    }
}
