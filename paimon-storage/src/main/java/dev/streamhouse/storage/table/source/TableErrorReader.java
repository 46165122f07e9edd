package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;

/** Adds the data file and table to read errors, so an operator knows what to look at. */
final class TableErrorReader implements RecordReader<InternalRow> {
    private final RecordReader<InternalRow> reader;
    private final Path file;
    private final String tableName;

    TableErrorReader(RecordReader<InternalRow> reader, Path file, String tableName) {
        this.reader = reader;
        this.file = file;
        this.tableName = tableName;
    }

    private IOException wrap(IOException e) {
        return new IOException("Cannot read data file " + file + " of table " + tableName + ": " + e.getMessage(), e);
    }

    @Override
    public RecordIterator<InternalRow> readBatch() throws IOException {
        RecordIterator<InternalRow> batch;
        try {
            batch = reader.readBatch();
        } catch (IOException e) {
            throw wrap(e);
        }
        if (batch == null) {
            return null;
        }
        return new RecordIterator<InternalRow>() {
            @Override
            public InternalRow next() throws IOException {
                try {
                    return batch.next();
                } catch (IOException e) {
                    throw wrap(e);
                }
            }

            @Override
            public void releaseBatch() {
                batch.releaseBatch();
            }
        };
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
