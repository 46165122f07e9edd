package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.RowType;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.Objects;

/**
 * Configures a {@link WriteBuffer}. Spilling is off unless {@link #spillTo} names a directory
 * ({@code write-buffer-spillable}); the disk budget and file-handle limit default to unlimited and 128.
 */
public final class WriteBufferBuilder {
    /** Default of {@code local-sort.max-num-file-handles}. */
    public static final int DEFAULT_MAX_SPILL_FILE_HANDLES = 128;

    final RowType keyType;
    final RowType valueType;
    final MemoryPool pool;
    Path spillDirectory;
    long maxSpillDiskBytes = Long.MAX_VALUE;
    int maxSpillFileHandles = DEFAULT_MAX_SPILL_FILE_HANDLES;
    Comparator<KeyValue> versionOrder;
    WriteBuffer.FlushRequestHandler flushHandler;

    WriteBufferBuilder(RowType keyType, RowType valueType, MemoryPool pool) {
        this.keyType = Objects.requireNonNull(keyType, "keyType");
        this.valueType = Objects.requireNonNull(valueType, "valueType");
        this.pool = Objects.requireNonNull(pool, "pool");
    }

    /** Enables spilling: sorted runs go to new files in {@code directory} (created if missing). */
    public WriteBufferBuilder spillTo(Path directory) {
        this.spillDirectory = Objects.requireNonNull(directory, "directory");
        return this;
    }

    /** {@code write-buffer-spill.max-disk-size}: spill files of this buffer never exceed it in total. */
    public WriteBufferBuilder maxSpillDiskBytes(long bytes) {
        this.maxSpillDiskBytes = bytes;
        return this;
    }

    /** {@code local-sort.max-num-file-handles}: spill files read at once; more are merged in passes. */
    public WriteBufferBuilder maxSpillFileHandles(int handles) {
        this.maxSpillFileHandles = handles;
        return this;
    }

    /**
     * Orders the versions of one key (e.g. by {@code sequence.field}) instead of by sequence number;
     * versions it considers equal stay in sequence-number order. With an order set, all versions of one
     * key are held in heap at once while merging it.
     */
    public WriteBufferBuilder versionOrder(Comparator<KeyValue> order) {
        this.versionOrder = Objects.requireNonNull(order, "order");
        return this;
    }

    /** How to drain this buffer when the pool needs its memory and it cannot spill. */
    public WriteBufferBuilder onFlushRequest(WriteBuffer.FlushRequestHandler handler) {
        this.flushHandler = Objects.requireNonNull(handler, "handler");
        return this;
    }

    /** Validates the settings and registers the new buffer with the pool. */
    public WriteBuffer build() {
        for (DataField field : keyType.fields()) {
            if (!InternalRowUtils.isOrderable(field.type())) {
                throw new IllegalArgumentException("Cannot build a write buffer: key field '" + field.name()
                        + "' has type " + field.type() + ", which has no order");
            }
        }
        if (maxSpillFileHandles < 2) {
            throw new IllegalArgumentException("Cannot build a write buffer: local-sort.max-num-file-handles is "
                    + maxSpillFileHandles + " but must be at least 2");
        }
        if (maxSpillDiskBytes < 0) {
            throw new IllegalArgumentException("Cannot build a write buffer: write-buffer-spill.max-disk-size is "
                    + maxSpillDiskBytes + " bytes but must not be negative");
        }
        return new WriteBuffer(this);
    }
}
