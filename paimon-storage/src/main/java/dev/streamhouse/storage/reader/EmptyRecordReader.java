package dev.streamhouse.storage.reader;

/** A reader without records. */
public final class EmptyRecordReader<T> implements RecordReader<T> {
    @Override
    public RecordIterator<T> readBatch() {
        return null;
    }

    @Override
    public void close() {}
}
