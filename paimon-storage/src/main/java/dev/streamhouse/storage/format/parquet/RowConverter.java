package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * Assembles a {@link GenericRow} of the read row type from a Parquet group (the message or a nested
 * ROW). Requested columns are matched to read fields by name; read fields without a column stay
 * null. Each record gets a fresh row, so rows stay valid after the next one is read.
 */
final class RowConverter extends GroupConverter {
    private final int arity;
    private final Converter[] converters;
    private final ValueSink sink;
    private Object[] values;

    /** @param sink receives each finished row; null for the root, whose row {@link #current()} returns */
    RowConverter(RowType readType, GroupType requested, ValueSink sink) {
        this.arity = readType.fieldCount();
        this.sink = sink;
        this.converters = new Converter[requested.getFieldCount()];
        for (int i = 0; i < converters.length; i++) {
            Type fileField = requested.getType(i);
            int pos = readType.fieldIndex(fileField.getName());
            converters[i] = pos < 0
                    ? ParquetConverters.discarding(fileField)
                    : ParquetConverters.create(readType.typeAt(pos), fileField, value -> values[pos] = value);
        }
        this.values = new Object[arity];
    }

    @Override
    public Converter getConverter(int fieldIndex) {
        return converters[fieldIndex];
    }

    @Override
    public void start() {
        values = new Object[arity];
    }

    @Override
    public void end() {
        if (sink != null) {
            sink.set(GenericRow.of(values));
        }
    }

    /** The row assembled by the last record. */
    GenericRow current() {
        return GenericRow.of(values);
    }
}
