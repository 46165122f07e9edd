package dev.streamhouse.storage.reader;

import java.io.IOException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Filters and maps the records of another reader. The mapping may return a reused object, so mapped
 * records follow the same validity rules as the source's.
 */
public final class TransformingRecordReader<S, T> implements RecordReader<T> {
    private final RecordReader<S> source;
    private final Predicate<S> filter;
    private final Function<S, T> mapper;

    public TransformingRecordReader(RecordReader<S> source, Predicate<S> filter, Function<S, T> mapper) {
        this.source = source;
        this.filter = filter;
        this.mapper = mapper;
    }

    @Override
    public RecordIterator<T> readBatch() throws IOException {
        RecordIterator<S> batch = source.readBatch();
        if (batch == null) {
            return null;
        }
        return new RecordIterator<T>() {
            @Override
            public T next() throws IOException {
                S s;
                while ((s = batch.next()) != null) {
                    if (filter == null || filter.test(s)) {
                        return mapper.apply(s);
                    }
                }
                return null;
            }

            @Override
            public void releaseBatch() {
                batch.releaseBatch();
            }
        };
    }

    @Override
    public void close() throws IOException {
        source.close();
    }
}
