package dev.streamhouse.storage.reader;

import dev.streamhouse.storage.data.InternalRow;

import java.io.IOException;

/**
 * A reader whose batches are column vectors. Each batch has vectors of its own, never refilled by a
 * later {@link #readBatch()}, so its rows stay valid as long as they are referenced. Release each batch
 * before reading the next, as for every {@link RecordReader}.
 */
public interface ColumnarRecordReader extends RecordReader<InternalRow> {

    @Override
    ColumnarRowIterator readBatch() throws IOException;
}
