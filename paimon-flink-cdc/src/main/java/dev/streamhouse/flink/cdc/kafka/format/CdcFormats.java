package dev.streamhouse.flink.cdc.kafka.format;

import java.time.ZoneId;
import java.util.List;
import java.util.Locale;

/** The {@code value.format}s a Kafka sync reads, by Apache Paimon's names. */
public final class CdcFormats {
    public static final String DEBEZIUM_JSON = "debezium-json";
    public static final String CANAL_JSON = "canal-json";
    public static final String MAXWELL_JSON = "maxwell-json";
    public static final String OGG_JSON = "ogg-json";
    public static final String AWS_DMS_JSON = "aws-dms-json";
    public static final String JSON = "json";
    /** The formats this project reads, in the order the docs list them. */
    public static final List<String> NAMES = List.of(DEBEZIUM_JSON, CANAL_JSON, MAXWELL_JSON, OGG_JSON, AWS_DMS_JSON,
            JSON);
    /** Apache Paimon's other formats, refused with a message naming them. */
    public static final List<String> NOT_SUPPORTED = List.of("debezium-avro", "debezium-bson");

    private CdcFormats() {}

    /**
     * The format's canonical name.
     *
     * @throws IllegalArgumentException naming the format and the ones that are read
     */
    public static String check(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (NAMES.contains(n)) {
            return n;
        }
        if (NOT_SUPPORTED.contains(n)) {
            throw new IllegalArgumentException("value.format '" + name + "' is not supported yet; the formats read are "
                    + NAMES);
        }
        throw new IllegalArgumentException("Unknown value.format '" + name + "'; the formats read are " + NAMES);
    }

    /** A new instance of a {@linkplain #check checked} format. */
    public static CdcFormat create(String name, ZoneId serverZone) {
        switch (check(name)) {
            case DEBEZIUM_JSON:
                return new DebeziumJson();
            case CANAL_JSON:
                return new CanalJson(serverZone);
            case MAXWELL_JSON:
                return new MaxwellJson();
            case OGG_JSON:
                return new OggJson();
            case AWS_DMS_JSON:
                return new AwsDmsJson();
            case JSON:
                return new PlainJson();
            default:
                throw new IllegalStateException(name);
        }
    }
}
