package dev.streamhouse.flink.sink.committable;

import dev.streamhouse.flink.common.SerializerTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.io.SimpleVersionedSerializerTypeSerializerProxy;

/**
 * Flink type information for {@link Committable} records between writers and the committer: they
 * travel through {@link CommittableSerializer} (never Kryo).
 */
public final class CommittableTypeInfo {
    public static final TypeInformation<Committable> INSTANCE = SerializerTypeInfo.of(Committable.class,
            () -> new SimpleVersionedSerializerTypeSerializerProxy<>(() -> CommittableSerializer.INSTANCE));

    private CommittableTypeInfo() {}
}
