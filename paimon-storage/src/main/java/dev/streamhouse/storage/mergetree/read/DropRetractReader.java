package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;

/**
 * The rows a table read returns from merged KeyValues: retractions (-U/-D) are dropped, and each
 * remaining value row is returned with its row kind set to the version's kind (+I or +U). The kind is
 * set on the value row in place. Rows follow the validity rules of the source reader.
 */
public final class DropRetractReader implements RecordReader<InternalRow> {
    private final RecordReader<KeyValue> source;

    public DropRetractReader(RecordReader<KeyValue> source) {
        this.source = source;
    }

    @Override
    public RecordIterator<InternalRow> readBatch() throws IOException {
        RecordIterator<KeyValue> batch = source.readBatch();
        if (batch == null) {
            return null;
        }
        return new RecordIterator<InternalRow>() {
            @Override
            public InternalRow next() throws IOException {
                KeyValue kv;
                while ((kv = batch.next()) != null) {
                    if (!kv.isRetract()) {
                        InternalRow value = kv.value();
                        value.setRowKind(kv.valueKind());
                        return value;
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
