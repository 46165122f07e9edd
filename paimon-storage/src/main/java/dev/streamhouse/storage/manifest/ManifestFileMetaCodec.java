package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.NewerPaimonFeatures;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;

import java.io.IOException;

/**
 * Writes {@link ManifestFileMeta} records in the layout of {@link ManifestSchemas#MANIFEST_LIST} and
 * reads them back by field name from any writer schema (docs/format.md §5.3).
 */
final class ManifestFileMetaCodec implements DatumWriter<ManifestFileMeta> {

    @Override
    public void setSchema(Schema schema) {
        if (!schema.equals(ManifestSchemas.MANIFEST_LIST)) {
            throw new IllegalArgumentException("ManifestFileMetaCodec writes only the manifest list schema");
        }
    }

    @Override
    public void write(ManifestFileMeta m, Encoder out) throws IOException {
        out.writeInt(ManifestSchemas.VERSION);
        out.writeString(m.fileName());
        out.writeLong(m.fileSize());
        out.writeLong(m.numAddedFiles());
        out.writeLong(m.numDeletedFiles());
        SimpleStatsCodec.write(m.partitionStats(), out);
        out.writeLong(m.schemaId());
        AvroEncoding.writeNullableInt(out, m.minBucket());
        AvroEncoding.writeNullableInt(out, m.maxBucket());
        AvroEncoding.writeNullableInt(out, m.minLevel());
        AvroEncoding.writeNullableInt(out, m.maxLevel());
    }

    static ManifestFileMeta read(GenericRecord r) {
        ManifestEntryCodec.checkVersion(AvroSupport.requireInt(r, "_VERSION"));
        return new ManifestFileMeta(
                AvroSupport.requireString(r, "_FILE_NAME"),
                AvroSupport.requireLong(r, "_FILE_SIZE"),
                AvroSupport.requireLong(r, "_NUM_ADDED_FILES"),
                AvroSupport.requireLong(r, "_NUM_DELETED_FILES"),
                SimpleStatsCodec.read(AvroSupport.requireRecord(r, "_PARTITION_STATS")),
                AvroSupport.requireLong(r, "_SCHEMA_ID"),
                AvroSupport.optionalInt(r, "_MIN_BUCKET"),
                AvroSupport.optionalInt(r, "_MAX_BUCKET"),
                AvroSupport.optionalInt(r, "_MIN_LEVEL"),
                AvroSupport.optionalInt(r, "_MAX_LEVEL"),
                AvroSupport.presentFields(r, NewerPaimonFeatures.MANIFEST_LIST_FIELDS));
    }
}
