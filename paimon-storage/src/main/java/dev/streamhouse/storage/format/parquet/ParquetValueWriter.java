package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.DataGetters;

import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes the non-null value at position {@code pos} of a row or array to a Parquet
 * {@link RecordConsumer}, inside an already started field. Implementations are created once per
 * file and reused for every row; they are not thread-safe.
 */
@FunctionalInterface
interface ParquetValueWriter {
    void write(RecordConsumer consumer, DataGetters source, int pos);
}
