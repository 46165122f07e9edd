package dev.streamhouse.storage.index;

import dev.streamhouse.storage.NewerPaimonFeatures;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.AvroEncoding;
import dev.streamhouse.storage.manifest.AvroSupport;
import dev.streamhouse.storage.manifest.FileKind;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@link IndexManifestEntry} records in the layout of {@link IndexManifestSchema#SCHEMA} and
 * reads them by field name from any writer schema. Readers reject a {@code _VERSION} other than 1;
 * null elements of the deletion-vector ranges are skipped.
 */
final class IndexManifestEntryCodec implements DatumWriter<IndexManifestEntry> {

    @Override
    public void setSchema(Schema schema) {
        if (!schema.equals(IndexManifestSchema.SCHEMA)) {
            throw new IllegalArgumentException("IndexManifestEntryCodec writes only the index manifest schema");
        }
    }

    @Override
    public void write(IndexManifestEntry entry, Encoder out) throws IOException {
        IndexFileMeta f = entry.indexFile();
        out.writeInt(IndexManifestSchema.VERSION);
        out.writeInt(entry.kind().toByteValue());
        out.writeBytes(entry.partition().toSerializedBytes());
        out.writeInt(entry.bucket());
        out.writeString(f.indexType());
        out.writeString(f.fileName());
        out.writeLong(f.fileSize());
        out.writeLong(f.rowCount());
        List<DeletionVectorMeta> ranges = f.deletionVectorRanges();
        if (ranges == null) {
            AvroEncoding.writeNull(out);
        } else {
            out.writeIndex(1);
            out.writeArrayStart();
            out.setItemCount(ranges.size());
            for (DeletionVectorMeta dv : ranges) {
                out.startItem();
                out.writeIndex(1);
                out.writeString(dv.dataFileName());
                out.writeInt(dv.offset());
                out.writeInt(dv.length());
                AvroEncoding.writeNullableLong(out, dv.cardinality());
            }
            out.writeArrayEnd();
        }
        AvroEncoding.writeNullableString(out, f.externalPath());
    }

    static IndexManifestEntry read(GenericRecord r) {
        int version = AvroSupport.requireInt(r, "_VERSION");
        if (version != IndexManifestSchema.VERSION) {
            throw new IllegalArgumentException("unsupported index manifest _VERSION " + version + "; this reader supports "
                    + IndexManifestSchema.VERSION);
        }
        FileKind kind = FileKind.fromByteValue(AvroSupport.requireInt(r, "_KIND"));
        byte[] partitionBytes = AvroSupport.requireBytes(r, "_PARTITION");
        BinaryRow partition;
        try {
            partition = BinaryRow.fromSerializedBytes(partitionBytes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("field _PARTITION is not a serialized row: " + e.getMessage(), e);
        }
        List<?> rawRanges = AvroSupport.optionalList(r, "_DELETIONS_VECTORS_RANGES");
        List<DeletionVectorMeta> ranges = null;
        if (rawRanges != null) {
            ranges = new ArrayList<>(rawRanges.size());
            for (Object o : rawRanges) {
                if (o == null) {
                    continue;
                }
                if (!(o instanceof GenericRecord)) {
                    throw new IllegalArgumentException("_DELETIONS_VECTORS_RANGES holds a " + o.getClass().getSimpleName());
                }
                GenericRecord dv = (GenericRecord) o;
                ranges.add(new DeletionVectorMeta(AvroSupport.requireString(dv, "f0"), AvroSupport.requireInt(dv, "f1"),
                        AvroSupport.requireInt(dv, "f2"), AvroSupport.optionalLong(dv, "_CARDINALITY")));
            }
        }
        IndexFileMeta file = new IndexFileMeta(AvroSupport.requireString(r, "_INDEX_TYPE"),
                AvroSupport.requireString(r, "_FILE_NAME"), AvroSupport.requireLong(r, "_FILE_SIZE"),
                AvroSupport.requireLong(r, "_ROW_COUNT"), ranges, AvroSupport.optionalString(r, "_EXTERNAL_PATH"),
                r.getSchema().getField(NewerPaimonFeatures.GLOBAL_INDEX_FIELD) != null
                        && r.get(NewerPaimonFeatures.GLOBAL_INDEX_FIELD) != null,
                AvroSupport.presentFields(r, NewerPaimonFeatures.INDEX_MANIFEST_FIELDS));
        return new IndexManifestEntry(kind, partition, AvroSupport.requireInt(r, "_BUCKET"), file);
    }
}
