package dev.streamhouse.flink.common;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.util.function.SerializableSupplier;

import java.util.Objects;

/**
 * Flink type information for a type that travels through a serializer of ours, never Kryo: the
 * records between our operators (committables, rows addressed to tables, CDC events, compaction
 * tasks). Equal for the same class.
 */
public final class SerializerTypeInfo<T> extends TypeInformation<T> {
    private static final long serialVersionUID = 1L;

    private final Class<T> type;
    private final SerializableSupplier<TypeSerializer<T>> serializer;

    private SerializerTypeInfo(Class<T> type, SerializableSupplier<TypeSerializer<T>> serializer) {
        this.type = Objects.requireNonNull(type, "type");
        this.serializer = Objects.requireNonNull(serializer, "serializer");
    }

    /** Type information of {@code type}, whose records {@code serializer}'s serializers write. */
    public static <T> SerializerTypeInfo<T> of(Class<T> type, SerializableSupplier<TypeSerializer<T>> serializer) {
        return new SerializerTypeInfo<>(type, serializer);
    }

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
    public Class<T> getTypeClass() {
        return type;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer.get();
    }

    /**
     * Flink 1.x's abstract variant; Flink 2 removed it from {@link TypeInformation}, so this is no
     * {@code @Override} and compiles against both lines.
     */
    @Deprecated
    public TypeSerializer<T> createSerializer(ExecutionConfig config) {
        return serializer.get();
    }

    @Override
    public String toString() {
        return type.getSimpleName();
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof SerializerTypeInfo<?> other && other.type.equals(type);
    }

    @Override
    public int hashCode() {
        return type.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof SerializerTypeInfo;
    }
}
