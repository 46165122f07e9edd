package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;

/** Materializes each Parquet record as a fresh {@link InternalRow} of the read type. */
final class RowMaterializer extends RecordMaterializer<InternalRow> {
    private final RowConverter root;

    RowMaterializer(RowType readType, MessageType requestedSchema) {
        this.root = new RowConverter(readType, requestedSchema, null);
    }

    @Override
    public InternalRow getCurrentRecord() {
        return root.current();
    }

    @Override
    public GroupConverter getRootConverter() {
        return root;
    }
}
