package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.data.InternalRow;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/** Rows computed one by one from a source iterator, as the reader advances. */
final class LazyRows {
    private LazyRows() {}

    /** Computes a row from one source item; null leaves the item out. */
    @FunctionalInterface
    interface RowFunction<T> {
        InternalRow apply(T item) throws IOException;
    }

    /**
     * The rows {@code function} computes from {@code source}, lazily; an {@link IOException} surfaces as
     * an {@link UncheckedIOException} naming {@code what}.
     */
    static <T> Iterator<InternalRow> of(Iterator<T> source, RowFunction<T> function, String what) {
        return new Iterator<>() {
            private InternalRow row = advance();

            private InternalRow advance() {
                while (source.hasNext()) {
                    try {
                        InternalRow r = function.apply(source.next());
                        if (r != null) {
                            return r;
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException("Cannot read " + what + ": " + e.getMessage(), e);
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return row != null;
            }

            @Override
            public InternalRow next() {
                if (row == null) {
                    throw new NoSuchElementException();
                }
                InternalRow out = row;
                row = advance();
                return out;
            }
        };
    }
}
