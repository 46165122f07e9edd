package dev.streamhouse.flink.sink.multitable;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Flink type information for {@link TableRow}s: they travel through {@link TableRowSerializer} (never Kryo). */
public final class TableRowTypeInfo extends TypeInformation<TableRow> {
    private static final long serialVersionUID = 1L;

    public static final TableRowTypeInfo INSTANCE = new TableRowTypeInfo();

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<TableRow> getTypeClass() {
        return TableRow.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<TableRow> createSerializer(SerializerConfig config) {
        return TableRowSerializer.INSTANCE;
    }

    @Override
    @Deprecated
    public TypeSerializer<TableRow> createSerializer(ExecutionConfig config) {
        return TableRowSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "TableRow";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof TableRowTypeInfo;
    }

    @Override
    public int hashCode() {
        return TableRowTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof TableRowTypeInfo;
    }
}
