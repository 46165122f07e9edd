package dev.streamhouse.storage.manifest;

import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

import java.util.List;

import static dev.streamhouse.storage.manifest.AvroSupport.field;
import static dev.streamhouse.storage.manifest.AvroSupport.nullable;
import static dev.streamhouse.storage.manifest.AvroSupport.nullableField;
import static dev.streamhouse.storage.manifest.AvroSupport.primitive;
import static dev.streamhouse.storage.manifest.AvroSupport.record;

/**
 * The Avro schemas Paimon 1.3 writes for manifest lists (docs/format.md §5.3) and data/changelog manifests
 * (§5.4), derived by Paimon's rules so that {@code toString()} equals the verified text exactly.
 */
public final class ManifestSchemas {
    /** {@code _VERSION} of manifest entries and manifest-list records. */
    public static final int VERSION = 2;

    /** The manifest-list record schema (§5.3). */
    public static final Schema MANIFEST_LIST = record("record", List.of(
            field("_VERSION", primitive(Schema.Type.INT)),
            field("_FILE_NAME", primitive(Schema.Type.STRING)),
            field("_FILE_SIZE", primitive(Schema.Type.LONG)),
            field("_NUM_ADDED_FILES", primitive(Schema.Type.LONG)),
            field("_NUM_DELETED_FILES", primitive(Schema.Type.LONG)),
            field("_PARTITION_STATS", simpleStats("record__PARTITION_STATS")),
            field("_SCHEMA_ID", primitive(Schema.Type.LONG)),
            nullableField("_MIN_BUCKET", primitive(Schema.Type.INT)),
            nullableField("_MAX_BUCKET", primitive(Schema.Type.INT)),
            nullableField("_MIN_LEVEL", primitive(Schema.Type.INT)),
            nullableField("_MAX_LEVEL", primitive(Schema.Type.INT))));

    /** The manifest-entry record schema (§5.4). */
    public static final Schema MANIFEST_ENTRY = record("record", List.of(
            field("_VERSION", primitive(Schema.Type.INT)),
            field("_KIND", primitive(Schema.Type.INT)),
            field("_PARTITION", primitive(Schema.Type.BYTES)),
            field("_BUCKET", primitive(Schema.Type.INT)),
            field("_TOTAL_BUCKETS", primitive(Schema.Type.INT)),
            field("_FILE", dataFileMeta())));

    private ManifestSchemas() {}

    private static Schema dataFileMeta() {
        Schema strings = Schema.createArray(primitive(Schema.Type.STRING));
        return record("record__FILE", List.of(
                field("_FILE_NAME", primitive(Schema.Type.STRING)),
                field("_FILE_SIZE", primitive(Schema.Type.LONG)),
                field("_ROW_COUNT", primitive(Schema.Type.LONG)),
                field("_MIN_KEY", primitive(Schema.Type.BYTES)),
                field("_MAX_KEY", primitive(Schema.Type.BYTES)),
                field("_KEY_STATS", simpleStats("record__FILE__KEY_STATS")),
                field("_VALUE_STATS", simpleStats("record__FILE__VALUE_STATS")),
                field("_MIN_SEQUENCE_NUMBER", primitive(Schema.Type.LONG)),
                field("_MAX_SEQUENCE_NUMBER", primitive(Schema.Type.LONG)),
                field("_SCHEMA_ID", primitive(Schema.Type.LONG)),
                field("_LEVEL", primitive(Schema.Type.INT)),
                field("_EXTRA_FILES", strings),
                nullableField("_CREATION_TIME", LogicalTypes.timestampMillis().addToSchema(primitive(Schema.Type.LONG))),
                nullableField("_DELETE_ROW_COUNT", primitive(Schema.Type.LONG)),
                nullableField("_EMBEDDED_FILE_INDEX", primitive(Schema.Type.BYTES)),
                nullableField("_FILE_SOURCE", primitive(Schema.Type.INT)),
                nullableField("_VALUE_STATS_COLS", Schema.createArray(primitive(Schema.Type.STRING))),
                nullableField("_EXTERNAL_PATH", primitive(Schema.Type.STRING)),
                nullableField("_FIRST_ROW_ID", primitive(Schema.Type.LONG)),
                nullableField("_WRITE_COLS", Schema.createArray(primitive(Schema.Type.STRING)))));
    }

    /** The SimpleStats record (§5.2) under the given record name. */
    static Schema simpleStats(String recordName) {
        return record(recordName, List.of(
                field("_MIN_VALUES", primitive(Schema.Type.BYTES)),
                field("_MAX_VALUES", primitive(Schema.Type.BYTES)),
                nullableField("_NULL_COUNTS", Schema.createArray(nullable(primitive(Schema.Type.LONG))))));
    }
}
