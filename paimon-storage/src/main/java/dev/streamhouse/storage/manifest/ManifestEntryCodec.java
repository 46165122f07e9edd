package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;

import java.io.IOException;
import java.util.List;

/**
 * Writes {@link ManifestEntry} records in the layout of {@link ManifestSchemas#MANIFEST_ENTRY} and
 * reads them back by field name from any writer schema (docs/format.md §5.4). Readers reject a
 * {@code _VERSION} other than 2.
 */
final class ManifestEntryCodec implements DatumWriter<ManifestEntry> {

    @Override
    public void setSchema(Schema schema) {
        if (!schema.equals(ManifestSchemas.MANIFEST_ENTRY)) {
            throw new IllegalArgumentException("ManifestEntryCodec writes only the manifest entry schema");
        }
    }

    @Override
    public void write(ManifestEntry entry, Encoder out) throws IOException {
        out.writeInt(ManifestSchemas.VERSION);
        out.writeInt(entry.kind().toByteValue());
        out.writeBytes(entry.partition().toSerializedBytes());
        out.writeInt(entry.bucket());
        out.writeInt(entry.totalBuckets());
        DataFileMeta f = entry.file();
        out.writeString(f.fileName());
        out.writeLong(f.fileSize());
        out.writeLong(f.rowCount());
        out.writeBytes(f.minKey().toSerializedBytes());
        out.writeBytes(f.maxKey().toSerializedBytes());
        SimpleStatsCodec.write(f.keyStats(), out);
        SimpleStatsCodec.write(f.valueStats(), out);
        out.writeLong(f.minSequenceNumber());
        out.writeLong(f.maxSequenceNumber());
        out.writeLong(f.schemaId());
        out.writeInt(f.level());
        AvroEncoding.writeStringArray(out, f.extraFiles());
        AvroEncoding.writeNullableLong(out, f.creationTimeMillis());
        AvroEncoding.writeNullableLong(out, f.deleteRowCount());
        AvroEncoding.writeNullableBytes(out, f.embeddedIndex());
        AvroEncoding.writeNullableInt(out, f.fileSource() == null ? null : (int) f.fileSource().toByteValue());
        AvroEncoding.writeNullableStringArray(out, f.valueStatsCols());
        AvroEncoding.writeNullableString(out, f.externalPath());
        AvroEncoding.writeNullableLong(out, f.firstRowId());
        AvroEncoding.writeNullableStringArray(out, f.writeCols());
    }

    static ManifestEntry read(GenericRecord r) {
        checkVersion(AvroSupport.requireInt(r, "_VERSION"));
        FileKind kind = FileKind.fromByteValue(AvroSupport.requireInt(r, "_KIND"));
        BinaryRow partition = SimpleStatsCodec.row(AvroSupport.requireBytes(r, "_PARTITION"), "_PARTITION");
        int bucket = AvroSupport.requireInt(r, "_BUCKET");
        int totalBuckets = AvroSupport.requireInt(r, "_TOTAL_BUCKETS");
        GenericRecord f = AvroSupport.requireRecord(r, "_FILE");
        Integer source = AvroSupport.optionalInt(f, "_FILE_SOURCE");
        List<String> extraFiles = AvroSupport.optionalStringList(f, "_EXTRA_FILES");
        if (extraFiles == null) {
            throw new IllegalArgumentException("required field _EXTRA_FILES is missing or null");
        }
        DataFileMeta file = new DataFileMeta(
                AvroSupport.requireString(f, "_FILE_NAME"),
                AvroSupport.requireLong(f, "_FILE_SIZE"),
                AvroSupport.requireLong(f, "_ROW_COUNT"),
                SimpleStatsCodec.row(AvroSupport.requireBytes(f, "_MIN_KEY"), "_MIN_KEY"),
                SimpleStatsCodec.row(AvroSupport.requireBytes(f, "_MAX_KEY"), "_MAX_KEY"),
                SimpleStatsCodec.read(AvroSupport.requireRecord(f, "_KEY_STATS")),
                SimpleStatsCodec.read(AvroSupport.requireRecord(f, "_VALUE_STATS")),
                AvroSupport.requireLong(f, "_MIN_SEQUENCE_NUMBER"),
                AvroSupport.requireLong(f, "_MAX_SEQUENCE_NUMBER"),
                AvroSupport.requireLong(f, "_SCHEMA_ID"),
                AvroSupport.requireInt(f, "_LEVEL"),
                extraFiles,
                AvroSupport.optionalLong(f, "_CREATION_TIME"),
                AvroSupport.optionalLong(f, "_DELETE_ROW_COUNT"),
                AvroSupport.optionalBytes(f, "_EMBEDDED_FILE_INDEX"),
                source == null ? null : FileSource.fromByteValue(source),
                AvroSupport.optionalStringList(f, "_VALUE_STATS_COLS"),
                AvroSupport.optionalString(f, "_EXTERNAL_PATH"),
                AvroSupport.optionalLong(f, "_FIRST_ROW_ID"),
                AvroSupport.optionalStringList(f, "_WRITE_COLS"));
        return new ManifestEntry(kind, partition, bucket, totalBuckets, file);
    }

    /** Manifest entries and manifest-list records share {@code _VERSION} 2. */
    static void checkVersion(int version) {
        if (version == 1) {
            throw new IllegalArgumentException("_VERSION 1 (written by Paimon before 0.9) is no longer supported, "
                    + "please recreate the table");
        }
        if (version != ManifestSchemas.VERSION) {
            throw new IllegalArgumentException("unsupported _VERSION " + version + "; this reader supports "
                    + ManifestSchemas.VERSION);
        }
    }
}
