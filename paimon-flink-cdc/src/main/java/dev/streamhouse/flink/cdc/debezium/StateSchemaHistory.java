package dev.streamhouse.flink.cdc.debezium;

import io.debezium.config.Configuration;
import io.debezium.document.DocumentReader;
import io.debezium.document.DocumentWriter;
import io.debezium.relational.history.AbstractSchemaHistory;
import io.debezium.relational.history.HistoryRecord;
import io.debezium.relational.history.HistoryRecordComparator;
import io.debezium.relational.history.SchemaHistoryException;
import io.debezium.relational.history.SchemaHistoryListener;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * Debezium's schema history kept in Flink state instead of a file or topic: records go to the
 * {@link HistoryRecords} registered for this engine run and come back from them on restart.
 * Records after the restored offset are harmless: Debezium only replays those at or before it.
 */
public final class StateSchemaHistory extends AbstractSchemaHistory {

    private HistoryRecords records;

    @Override
    public void configure(Configuration config, HistoryRecordComparator comparator,
            SchemaHistoryListener listener, boolean useCatalogBeforeSchema) {
        super.configure(config, comparator, listener, useCatalogBeforeSchema);
        String id = config.getString(SchemaHistoryRegistry.ID_PROPERTY);
        if (id == null) {
            id = config.getString(SchemaHistoryRegistry.ID_PROPERTY.substring("schema.history.internal.".length()));
        }
        records = SchemaHistoryRegistry.lookup(id);
    }

    @Override
    protected void storeRecord(HistoryRecord record) throws SchemaHistoryException {
        try {
            records.add(DocumentWriter.defaultWriter().write(record.document()));
        } catch (IOException e) {
            throw new SchemaHistoryException("Cannot serialize a schema history record", e);
        }
    }

    @Override
    protected void recoverRecords(Consumer<HistoryRecord> consumer) {
        for (String json : records.snapshot()) {
            try {
                consumer.accept(new HistoryRecord(DocumentReader.defaultReader().read(json)));
            } catch (IOException e) {
                throw new SchemaHistoryException("Cannot read a schema history record from the checkpoint", e);
            }
        }
    }

    @Override
    public boolean exists() {
        return records != null && !records.isEmpty();
    }

    @Override
    public boolean storageExists() {
        return true;
    }

    @Override
    public String toString() {
        return "Flink state";
    }
}
