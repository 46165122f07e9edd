package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.stats.SimpleStats;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * Writes Avro files with plain GenericRecords and arbitrary schemas, independent of the production
 * writers: how a file of another Paimon version (or a hand-made one) looks.
 */
final class AvroTestFiles {
    private AvroTestFiles() {}

    static void write(FileIO fileIO, Path path, Schema schema, List<GenericRecord> records) throws IOException {
        try (OutputStream out = fileIO.newOutputStream(path, true);
                DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(schema))) {
            w.setCodec(CodecFactory.zstandardCodec(1));
            w.create(schema, out);
            for (GenericRecord r : records) {
                w.append(r);
            }
        }
    }

    /** Fills the fields of {@code schema} (whatever subset of the §5.4 layout it has) from {@code entry}. */
    static GenericRecord entryRecord(Schema schema, ManifestEntry entry) {
        GenericRecord r = new GenericData.Record(schema);
        putIfPresent(r, "_VERSION", 2);
        putIfPresent(r, "_KIND", (int) entry.kind().toByteValue());
        putIfPresent(r, "_PARTITION", ByteBuffer.wrap(entry.partition().toSerializedBytes()));
        putIfPresent(r, "_BUCKET", entry.bucket());
        putIfPresent(r, "_TOTAL_BUCKETS", entry.totalBuckets());
        DataFileMeta f = entry.file();
        GenericRecord file = new GenericData.Record(schema.getField("_FILE").schema());
        putIfPresent(file, "_FILE_NAME", f.fileName());
        putIfPresent(file, "_FILE_SIZE", f.fileSize());
        putIfPresent(file, "_ROW_COUNT", f.rowCount());
        putIfPresent(file, "_MIN_KEY", ByteBuffer.wrap(f.minKey().toSerializedBytes()));
        putIfPresent(file, "_MAX_KEY", ByteBuffer.wrap(f.maxKey().toSerializedBytes()));
        putIfPresent(file, "_KEY_STATS", stats(file.getSchema().getField("_KEY_STATS").schema(), f.keyStats()));
        putIfPresent(file, "_VALUE_STATS", stats(file.getSchema().getField("_VALUE_STATS").schema(), f.valueStats()));
        putIfPresent(file, "_MIN_SEQUENCE_NUMBER", f.minSequenceNumber());
        putIfPresent(file, "_MAX_SEQUENCE_NUMBER", f.maxSequenceNumber());
        putIfPresent(file, "_SCHEMA_ID", f.schemaId());
        putIfPresent(file, "_LEVEL", f.level());
        putIfPresent(file, "_EXTRA_FILES", f.extraFiles());
        putIfPresent(file, "_CREATION_TIME", f.creationTimeMillis());
        putIfPresent(file, "_DELETE_ROW_COUNT", f.deleteRowCount());
        putIfPresent(file, "_EMBEDDED_FILE_INDEX", f.embeddedIndex() == null ? null : ByteBuffer.wrap(f.embeddedIndex()));
        putIfPresent(file, "_FILE_SOURCE", f.fileSource() == null ? null : (int) f.fileSource().toByteValue());
        putIfPresent(file, "_VALUE_STATS_COLS", f.valueStatsCols());
        putIfPresent(file, "_EXTERNAL_PATH", f.externalPath());
        putIfPresent(file, "_FIRST_ROW_ID", f.firstRowId());
        putIfPresent(file, "_WRITE_COLS", f.writeCols());
        r.put("_FILE", file);
        return r;
    }

    static GenericRecord stats(Schema schema, SimpleStats stats) {
        GenericRecord s = new GenericData.Record(schema);
        s.put("_MIN_VALUES", ByteBuffer.wrap(stats.minValues().toSerializedBytes()));
        s.put("_MAX_VALUES", ByteBuffer.wrap(stats.maxValues().toSerializedBytes()));
        s.put("_NULL_COUNTS", stats.nullCounts() == null ? null : Arrays.asList(stats.nullCounts()));
        return s;
    }

    static void putIfPresent(GenericRecord r, String field, Object value) {
        if (r.getSchema().getField(field) != null) {
            r.put(field, value);
        }
    }
}
