package dev.streamhouse.storage.reader;

import dev.streamhouse.storage.data.InternalRow;

import java.io.IOException;

/**
 * A reader whose batches are column vectors. The vectors of a batch may be refilled by the next
 * {@link #readBatch()}: release a batch before reading the next, as for every {@link RecordReader}.
 */
public interface ColumnarRecordReader extends RecordReader<InternalRow> {

    @Override
    ColumnarRowIterator readBatch() throws IOException;
}
