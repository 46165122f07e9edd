package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.types.RowType;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

import java.util.HashMap;

/**
 * Feeds {@link InternalRow}s straight into Parquet's {@link RecordConsumer}, without intermediate
 * record objects. Declares no key/value metadata and no object-model name, so the footer carries
 * none (as Paimon's files).
 */
final class RowWriteSupport extends WriteSupport<InternalRow> {
    private final MessageType schema;
    private final ParquetRowFieldsWriter fields;
    private RecordConsumer consumer;

    RowWriteSupport(RowType rowType) {
        this.schema = ParquetSchemaConverter.toMessageType(rowType);
        this.fields = new ParquetRowFieldsWriter(rowType);
    }

    MessageType schema() {
        return schema;
    }

    @Override
    public WriteContext init(Configuration configuration) {
        return new WriteContext(schema, new HashMap<>());
    }

    @Override
    public WriteContext init(ParquetConfiguration configuration) {
        return new WriteContext(schema, new HashMap<>());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.consumer = recordConsumer;
    }

    @Override
    public void write(InternalRow row) {
        consumer.startMessage();
        fields.writeFields(consumer, row);
        consumer.endMessage();
    }
}
