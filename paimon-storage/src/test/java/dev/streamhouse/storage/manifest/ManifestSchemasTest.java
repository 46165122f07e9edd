package dev.streamhouse.storage.manifest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ManifestSchemasTest {
    /** docs/format.md §5.3, verified against files written by Paimon 1.3.1. */
    static final String MANIFEST_LIST = "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":[{\"name\":\"_VERSION\",\"type\":\"int\"},{\"name\":\"_FILE_NAME\",\"type\":\"string\"},{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},{\"name\":\"_NUM_ADDED_FILES\",\"type\":\"long\"},{\"name\":\"_NUM_DELETED_FILES\",\"type\":\"long\"},{\"name\":\"_PARTITION_STATS\",\"type\":{\"type\":\"record\",\"name\":\"record__PARTITION_STATS\",\"fields\":[{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},{\"name\":\"_SCHEMA_ID\",\"type\":\"long\"},{\"name\":\"_MIN_BUCKET\",\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":\"_MAX_BUCKET\",\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":\"_MIN_LEVEL\",\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":\"_MAX_LEVEL\",\"type\":[\"null\",\"int\"],\"default\":null}]}";

    /** docs/format.md §5.4. */
    static final String MANIFEST_ENTRY = "{\"type\":\"record\",\"name\":\"record\",\"namespace\":\"org.apache.paimon.avro.generated\",\"fields\":[{\"name\":\"_VERSION\",\"type\":\"int\"},{\"name\":\"_KIND\",\"type\":\"int\"},{\"name\":\"_PARTITION\",\"type\":\"bytes\"},{\"name\":\"_BUCKET\",\"type\":\"int\"},{\"name\":\"_TOTAL_BUCKETS\",\"type\":\"int\"},{\"name\":\"_FILE\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE\",\"fields\":[{\"name\":\"_FILE_NAME\",\"type\":\"string\"},{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},{\"name\":\"_ROW_COUNT\",\"type\":\"long\"},{\"name\":\"_MIN_KEY\",\"type\":\"bytes\"},{\"name\":\"_MAX_KEY\",\"type\":\"bytes\"},{\"name\":\"_KEY_STATS\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE__KEY_STATS\",\"fields\":[{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},{\"name\":\"_VALUE_STATS\",\"type\":{\"type\":\"record\",\"name\":\"record__FILE__VALUE_STATS\",\"fields\":[{\"name\":\"_MIN_VALUES\",\"type\":\"bytes\"},{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},{\"name\":\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],\"default\":null}]}},{\"name\":\"_MIN_SEQUENCE_NUMBER\",\"type\":\"long\"},{\"name\":\"_MAX_SEQUENCE_NUMBER\",\"type\":\"long\"},{\"name\":\"_SCHEMA_ID\",\"type\":\"long\"},{\"name\":\"_LEVEL\",\"type\":\"int\"},{\"name\":\"_EXTRA_FILES\",\"type\":{\"type\":\"array\",\"items\":\"string\"}},{\"name\":\"_CREATION_TIME\",\"type\":[\"null\",{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}],\"default\":null},{\"name\":\"_DELETE_ROW_COUNT\",\"type\":[\"null\",\"long\"],\"default\":null},{\"name\":\"_EMBEDDED_FILE_INDEX\",\"type\":[\"null\",\"bytes\"],\"default\":null},{\"name\":\"_FILE_SOURCE\",\"type\":[\"null\",\"int\"],\"default\":null},{\"name\":\"_VALUE_STATS_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],\"default\":null},{\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],\"default\":null},{\"name\":\"_FIRST_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null},{\"name\":\"_WRITE_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],\"default\":null}]}}]}";

    @Test
    void manifestListSchemaIsPaimonsExactly() {
        assertThat(ManifestSchemas.MANIFEST_LIST.toString()).isEqualTo(MANIFEST_LIST);
    }

    @Test
    void manifestEntrySchemaIsPaimonsExactly() {
        assertThat(ManifestSchemas.MANIFEST_ENTRY.toString()).isEqualTo(MANIFEST_ENTRY);
    }
}
