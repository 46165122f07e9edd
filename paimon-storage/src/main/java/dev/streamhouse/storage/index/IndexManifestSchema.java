package dev.streamhouse.storage.index;

import org.apache.avro.Schema;

import java.util.List;

import static dev.streamhouse.storage.manifest.AvroSupport.field;
import static dev.streamhouse.storage.manifest.AvroSupport.nullable;
import static dev.streamhouse.storage.manifest.AvroSupport.nullableField;
import static dev.streamhouse.storage.manifest.AvroSupport.primitive;
import static dev.streamhouse.storage.manifest.AvroSupport.record;

/** The Avro schema Paimon 1.3 writes for index manifests (docs/format.md §5.6). */
public final class IndexManifestSchema {
    /** {@code _VERSION} of index manifest entries. */
    public static final int VERSION = 1;

    public static final Schema SCHEMA = record("record", List.of(
            field("_VERSION", primitive(Schema.Type.INT)),
            field("_KIND", primitive(Schema.Type.INT)),
            field("_PARTITION", primitive(Schema.Type.BYTES)),
            field("_BUCKET", primitive(Schema.Type.INT)),
            field("_INDEX_TYPE", primitive(Schema.Type.STRING)),
            field("_FILE_NAME", primitive(Schema.Type.STRING)),
            field("_FILE_SIZE", primitive(Schema.Type.LONG)),
            field("_ROW_COUNT", primitive(Schema.Type.LONG)),
            nullableField("_DELETIONS_VECTORS_RANGES", Schema.createArray(nullable(record(
                    "record__DELETIONS_VECTORS_RANGES", List.of(
                            field("f0", primitive(Schema.Type.STRING)),
                            field("f1", primitive(Schema.Type.INT)),
                            field("f2", primitive(Schema.Type.INT)),
                            nullableField("_CARDINALITY", primitive(Schema.Type.LONG))))))),
            nullableField("_EXTERNAL_PATH", primitive(Schema.Type.STRING))));

    private IndexManifestSchema() {}
}
