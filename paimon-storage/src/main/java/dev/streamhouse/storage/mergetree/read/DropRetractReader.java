package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.columnar.ColumnarRow;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.reader.TransformingRecordReader;

import java.io.IOException;

/**
 * The rows a table read returns from merged KeyValues: retractions (-U/-D) are dropped, and each
 * remaining value row is returned with its row kind set to the version's kind (+I or +U). Value rows
 * that are views of column vectors ({@link ColumnarRow}, as file readers produce) are returned as views
 * of their own, so they stay valid after the merge moves on (vectors are never refilled); other value
 * rows get the kind set in place and follow the validity rules of the source reader.
 */
public final class DropRetractReader implements RecordReader<InternalRow> {
    private final RecordReader<InternalRow> rows;

    public DropRetractReader(RecordReader<KeyValue> source) {
        this.rows = new TransformingRecordReader<>(source, kv -> !kv.isRetract(), DropRetractReader::valueOf);
    }

    /** The value row of a merged version, with the version's kind; a view of its own (see above). */
    static InternalRow valueOf(KeyValue kv) {
        InternalRow value = kv.value();
        if (value instanceof ColumnarRow) {
            value = ((ColumnarRow) value).detach();
        }
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
