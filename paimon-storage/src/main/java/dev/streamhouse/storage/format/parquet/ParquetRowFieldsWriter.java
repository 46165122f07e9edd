package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes the fields of a row (the top-level message or a nested ROW group) to a
 * {@link RecordConsumer}: each non-null field as a started and ended field, NULL fields left out.
 * A NULL in a NOT NULL field fails, naming the field.
 */
final class ParquetRowFieldsWriter {
    private final String[] names;
    private final boolean[] required;
    private final ParquetValueWriter[] writers;

    ParquetRowFieldsWriter(RowType rowType) {
        int n = rowType.fieldCount();
        this.names = new String[n];
        this.required = new boolean[n];
        this.writers = new ParquetValueWriter[n];
        for (int i = 0; i < n; i++) {
            DataField field = rowType.field(i);
            names[i] = field.name();
            required[i] = !field.type().isNullable();
            writers[i] = ParquetValueWriters.create(field.type());
        }
    }

    void writeFields(RecordConsumer consumer, InternalRow row) {
        if (row.arity() < names.length) {
            throw new IllegalArgumentException("Cannot write row to Parquet: it has " + row.arity()
                    + " fields but the file schema has " + names.length);
        }
        for (int i = 0; i < names.length; i++) {
            ParquetValueWriters.writeOptionalField(consumer, row, i, writers[i], names[i], i, required[i]);
        }
    }
}
