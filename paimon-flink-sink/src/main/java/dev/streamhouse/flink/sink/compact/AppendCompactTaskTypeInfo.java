package dev.streamhouse.flink.sink.compact;

import dev.streamhouse.flink.common.SerializerTypeInfo;
import dev.streamhouse.storage.serialization.AppendCompactTaskSerializer;
import dev.streamhouse.storage.table.sink.AppendCompactTask;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializerTypeSerializerProxy;

import java.io.IOException;

/**
 * Flink type information for the {@link AppendCompactTask}s a compaction coordinator sends to its
 * workers: they travel in storage's binary form ({@link AppendCompactTaskSerializer}), never Kryo.
 */
public final class AppendCompactTaskTypeInfo {
    public static final TypeInformation<AppendCompactTask> INSTANCE = SerializerTypeInfo.of(AppendCompactTask.class,
            () -> new SimpleVersionedSerializerTypeSerializerProxy<>(() -> Serializer.INSTANCE));

    private AppendCompactTaskTypeInfo() {}

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
}
