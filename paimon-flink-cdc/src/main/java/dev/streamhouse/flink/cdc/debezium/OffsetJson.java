package dev.streamhouse.flink.cdc.debezium;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * Debezium source offsets as the JSON text Kafka Connect's offset stores hold (schemaless
 * {@link JsonConverter}): what the split state keeps, and what {@link StateOffsetBackingStore} hands
 * back to the engine on restart.
 */
public final class OffsetJson {

    private static final String TOPIC = "offsets";

    private OffsetJson() {}

    public static String toJson(Map<String, ?> offset) {
        return new String(converter().fromConnectData(TOPIC, null, offset), StandardCharsets.UTF_8);
    }

    public static byte[] toBytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> toMap(String json) {
        return (Map<String, Object>) converter().toConnectData(TOPIC, toBytes(json)).value();
    }

    private static JsonConverter converter() {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of("schemas.enable", "false", "converter.type", "value"));
        return converter;
    }
}
