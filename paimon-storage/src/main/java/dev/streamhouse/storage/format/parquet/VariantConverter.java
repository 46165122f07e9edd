package dev.streamhouse.storage.format.parquet;

import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;

/** Assembles a VARIANT's {@code value} and {@code metadata} binaries into {@link VariantBytes}. */
final class VariantConverter extends GroupConverter {
    private final Converter[] children;
    private final ValueSink sink;
    private Binary value;
    private Binary metadata;

    VariantConverter(GroupType group, ValueSink sink) {
        this.sink = sink;
        this.children = new Converter[group.getFieldCount()];
        for (int i = 0; i < children.length; i++) {
            String name = group.getType(i).getName();
            if (name.equals(ParquetSchemaConverter.VARIANT_VALUE_NAME)) {
                children[i] = new PrimitiveConverter() {
                    @Override
                    public void addBinary(Binary v) {
                        value = v;
                    }
                };
            } else if (name.equals(ParquetSchemaConverter.VARIANT_METADATA_NAME)) {
                children[i] = new PrimitiveConverter() {
                    @Override
                    public void addBinary(Binary v) {
                        metadata = v;
                    }
                };
            } else {
                children[i] = ParquetConverters.discarding(group.getType(i));
            }
        }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
        return children[fieldIndex];
    }

    @Override
    public void start() {
        value = null;
        metadata = null;
    }

    @Override
    public void end() {
        byte[] v = value == null ? new byte[0] : value.getBytesUnsafe();
        byte[] m = metadata == null ? new byte[0] : metadata.getBytesUnsafe();
        sink.set(VariantBytes.pack(v, m));
    }
}
