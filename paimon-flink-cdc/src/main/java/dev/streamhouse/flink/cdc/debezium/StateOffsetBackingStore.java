package dev.streamhouse.flink.cdc.debezium;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.connect.runtime.WorkerConfig;
import org.apache.kafka.connect.storage.OffsetBackingStore;
import org.apache.kafka.connect.util.Callback;

/**
 * The engine's offset store, fed from Flink state. It answers every offset lookup with the offset
 * the split state restored (property {@value #OFFSET_PROPERTY}, the JSON of a Debezium source
 * offset; absent for a fresh start), so the connector resumes exactly there. The offsets the engine
 * commits on its own schedule are kept in memory only: the split state, written on each Flink
 * checkpoint from the offsets of the records emitted, is the only durable copy. A binlog connector
 * has one source partition, so every key maps to that one offset.
 */
public final class StateOffsetBackingStore implements OffsetBackingStore {

    /** Engine property holding the restored offset's JSON. */
    public static final String OFFSET_PROPERTY = "streamhouse.restored.offset";

    private final Map<ByteBuffer, ByteBuffer> committed = new HashMap<>();
    private ByteBuffer restored;

    @Override
    public void configure(WorkerConfig config) {
        Object json = config.originals().get(OFFSET_PROPERTY);
        restored = json == null ? null : ByteBuffer.wrap(OffsetJson.toBytes(json.toString()));
    }

    @Override
    public void start() {}

    @Override
    public void stop() {}

    @Override
    public synchronized Future<Map<ByteBuffer, ByteBuffer>> get(Collection<ByteBuffer> keys) {
        Map<ByteBuffer, ByteBuffer> result = new HashMap<>();
        for (ByteBuffer key : keys) {
            ByteBuffer value = committed.containsKey(key) ? committed.get(key) : restored;
            result.put(key, value == null ? null : value.duplicate());
        }
        return CompletableFuture.completedFuture(result);
    }

    @Override
    public synchronized Future<Void> set(Map<ByteBuffer, ByteBuffer> values, Callback<Void> callback) {
        committed.putAll(values);
        if (callback != null) {
            callback.onCompletion(null, null);
        }
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public Set<Map<String, Object>> connectorPartitions(String connectorName) {
        return Set.of();
    }
}
