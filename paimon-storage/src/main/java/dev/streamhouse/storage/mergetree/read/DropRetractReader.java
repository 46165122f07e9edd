package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.reader.TransformingRecordReader;

import java.io.IOException;

/**
 * The rows a table read returns from merged KeyValues: retractions (-U/-D) are dropped, and each
 * remaining value row is returned with its row kind set to the version's kind (+I or +U). The kind is
 * set on the value row in place. Rows follow the validity rules of the source reader.
 */
public final class DropRetractReader implements RecordReader<InternalRow> {
    private final RecordReader<InternalRow> rows;

    public DropRetractReader(RecordReader<KeyValue> source) {
        this.rows = new TransformingRecordReader<>(source, kv -> !kv.isRetract(), DropRetractReader::valueOf);
    }

    private static InternalRow valueOf(KeyValue kv) {
        InternalRow value = kv.value();
        value.setRowKind(kv.valueKind());
        return value;
    }

    @Override
    public RecordIterator<InternalRow> readBatch() throws IOException {
        return rows.readBatch();
    }

    @Override
    public void close() throws IOException {
        rows.close();
    }
}
