package dev.streamhouse.flink.sink.committable;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializerTypeSerializerProxy;

/**
 * Flink type information for {@link Committable} records between writers and the committer: they
 * travel through {@link CommittableSerializer} (never Kryo).
 */
public final class CommittableTypeInfo extends TypeInformation<Committable> {
    private static final long serialVersionUID = 1L;

    public static final CommittableTypeInfo INSTANCE = new CommittableTypeInfo();

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
    public Class<Committable> getTypeClass() {
        return Committable.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<Committable> createSerializer(SerializerConfig config) {
        return new SimpleVersionedSerializerTypeSerializerProxy<>(() -> CommittableSerializer.INSTANCE);
    }

    @Override
    @Deprecated
    public TypeSerializer<Committable> createSerializer(ExecutionConfig config) {
        return createSerializer(config.getSerializerConfig());
    }

    @Override
    public String toString() {
        return "Committable";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof CommittableTypeInfo;
    }

    @Override
    public int hashCode() {
        return CommittableTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof CommittableTypeInfo;
    }
}
