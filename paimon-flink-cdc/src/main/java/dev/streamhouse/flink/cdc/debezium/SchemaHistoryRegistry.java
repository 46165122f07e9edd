package dev.streamhouse.flink.cdc.debezium;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hands each connector's {@link HistoryRecords} to the {@link StateSchemaHistory} instance Debezium
 * creates by class name. Keyed by an id unique per engine run (property {@value #ID_PROPERTY});
 * registered before the engine starts and removed when it stops.
 */
public final class SchemaHistoryRegistry {

    /** The history id, as a {@code schema.history.internal.*} connector property. */
    public static final String ID_PROPERTY = "schema.history.internal.streamhouse.id";

    private static final Map<String, HistoryRecords> HISTORIES = new ConcurrentHashMap<>();

    private SchemaHistoryRegistry() {}

    public static void register(String id, HistoryRecords records) {
        HISTORIES.put(id, records);
    }

    public static void unregister(String id) {
        HISTORIES.remove(id);
    }

    static HistoryRecords lookup(String id) {
        HistoryRecords records = id == null ? null : HISTORIES.get(id);
        if (records == null) {
            throw new IllegalStateException("No schema history registered under id '" + id
                    + "': the Debezium engine was started outside the MySQL CDC source reader");
        }
        return records;
    }
}
