package dev.streamhouse.flink.sink.compact;

import dev.streamhouse.storage.serialization.AppendCompactTaskSerializer;
import dev.streamhouse.storage.table.sink.AppendCompactTask;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializerTypeSerializerProxy;

import java.io.IOException;

/**
 * Flink type information for the {@link AppendCompactTask}s a compaction coordinator sends to its
 * workers: they travel in storage's binary form ({@link AppendCompactTaskSerializer}), never Kryo.
 */
public final class AppendCompactTaskTypeInfo extends TypeInformation<AppendCompactTask> {
    private static final long serialVersionUID = 1L;

    public static final AppendCompactTaskTypeInfo INSTANCE = new AppendCompactTaskTypeInfo();

    /** Storage's form, which carries its own version; this wrapper's version stays 1. */
    static final class Serializer implements SimpleVersionedSerializer<AppendCompactTask> {
        static final Serializer INSTANCE = new Serializer();

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(AppendCompactTask task) {
            return AppendCompactTaskSerializer.INSTANCE.serialize(task);
        }

        @Override
        public AppendCompactTask deserialize(int version, byte[] serialized) throws IOException {
            if (version != 1) {
                throw new IOException("Cannot read an append compaction task of version " + version
                        + ": this release reads version 1");
            }
            return AppendCompactTaskSerializer.INSTANCE.deserialize(serialized);
        }
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
    public Class<AppendCompactTask> getTypeClass() {
        return AppendCompactTask.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<AppendCompactTask> createSerializer(SerializerConfig config) {
        return new SimpleVersionedSerializerTypeSerializerProxy<>(() -> Serializer.INSTANCE);
    }

    @Override
    @Deprecated
    public TypeSerializer<AppendCompactTask> createSerializer(ExecutionConfig config) {
        return createSerializer(config.getSerializerConfig());
    }

    @Override
    public String toString() {
        return "AppendCompactTask";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof AppendCompactTaskTypeInfo;
    }

    @Override
    public int hashCode() {
        return AppendCompactTaskTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object obj) {
        return obj instanceof AppendCompactTaskTypeInfo;
    }
}
