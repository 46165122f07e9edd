package dev.streamhouse.storage.manifest;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Reads records of a writer schema field by field and, before the field named {@code gate}, asks
 * {@code wanted} whether the record so far (the fields before the gate; later ones still null) is
 * wanted: if not, the rest of the record is skipped without building it and {@link #read} returns
 * null. So a manifest entry of a partition a plan does not need costs reading its partition and
 * bucket, not its file's name, keys and statistics. Records whose schema has no such field are read
 * whole. The values are those {@link GenericDatumReader} gives for each field's schema.
 */
final class GatedRecordReader implements DatumReader<GenericRecord> {
    private final String gate;
    private final Predicate<GenericRecord> wanted;
    private Schema schema;
    private final List<DatumReader<Object>> fieldReaders = new ArrayList<>();
    private int gateIndex;

    GatedRecordReader(String gate, Predicate<GenericRecord> wanted) {
        this.gate = gate;
        this.wanted = wanted;
    }

    @Override
    public void setSchema(Schema writerSchema) {
        if (writerSchema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("records expected, the file holds " + writerSchema.getType());
        }
        this.schema = writerSchema;
        fieldReaders.clear();
        gateIndex = -1;
        for (Schema.Field field : writerSchema.getFields()) {
            if (field.name().equals(gate)) {
                gateIndex = field.pos();
            }
            fieldReaders.add(new GenericDatumReader<>(field.schema()));
        }
    }

    @Override
    public GenericRecord read(GenericRecord reuse, Decoder in) throws IOException {
        GenericRecord record = new GenericData.Record(schema);
        List<Schema.Field> fields = schema.getFields();
        for (int i = 0; i < fields.size(); i++) {
            if (i == gateIndex && !wanted.test(record)) {
                for (int j = i; j < fields.size(); j++) {
                    GenericDatumReader.skip(fields.get(j).schema(), in);
                }
                return null;
            }
            record.put(i, fieldReaders.get(i).read(null, in));
        }
        return record;
    }
}
