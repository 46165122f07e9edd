package dev.streamhouse.flink.cdc.event;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** Flink type information for {@link CdcEvent}s: they travel through {@link CdcEventSerializer} (never Kryo). */
public final class CdcEventTypeInfo extends TypeInformation<CdcEvent> {
    private static final long serialVersionUID = 1L;

    public static final CdcEventTypeInfo INSTANCE = new CdcEventTypeInfo();

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
    public Class<CdcEvent> getTypeClass() {
        return CdcEvent.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<CdcEvent> createSerializer(SerializerConfig config) {
        return CdcEventSerializer.INSTANCE;
    }

    @Override
    @Deprecated
    public TypeSerializer<CdcEvent> createSerializer(ExecutionConfig config) {
        return CdcEventSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "CdcEvent";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof CdcEventTypeInfo;
    }

    @Override
    public int hashCode() {
        return CdcEventTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof CdcEventTypeInfo;
    }
}
