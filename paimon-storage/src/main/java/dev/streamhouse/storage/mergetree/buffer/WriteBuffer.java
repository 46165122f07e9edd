package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.types.RowType;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * The write buffer (memtable) of one bucket of a primary-key table writer: records are serialized into
 * pages of a shared {@link MemoryPool}, sorted by key when read, and merged per key before they become a
 * level-0 file (docs/format.md §8.2: a data file holds at most one record per key). With spilling on, a full
 * buffer writes a sorted run to local disk instead and the final read merges all runs.
 *
 * <p><b>Writer protocol.</b> {@link #put} each record; when it returns false, drain the buffer into a
 * level-0 file ({@link #mergedReader} or {@link #forEachMerged}, then {@link #clear()}) and put the
 * record again. Before a checkpoint, drain the same way. {@link #close()} when the bucket is done.
 *
 * <p><b>Memory.</b> The buffer is a {@link MemoryOwner} registered with the pool. When the pool asks it to
 * free memory it spills its in-memory records if spilling is on and the disk budget allows; otherwise,
 * unless the request comes from its own {@code put}, it calls the {@link FlushRequestHandler} (if any),
 * which must drain and clear it. Outside the pool, a buffer uses a constant amount of heap: a
 * serialization scratch array the size of the largest record, and while reading about
 * {@code 2 × 32 KiB} per open spill file.
 *
 * <p><b>Changelog.</b> {@link #sortedReader()} reads every buffered record unmerged, in (key, sequence
 * number) order, for writers that also write the input as changelog ({@code changelog-producer =
 * input}); a writer may read the buffer both ways before it clears it.
 *
 * <p><b>Threading.</b> Not thread-safe: use a buffer, its pool and the pool's other owners from one
 * thread. At most one reader (merged or sorted) may be open at a time; {@code put} and {@code clear}
 * fail while it is open.
 */
public final class WriteBuffer implements MemoryOwner, Closeable {

    /** Drains a buffer the pool wants memory back from, e.g. by flushing it as a level-0 file. */
    @FunctionalInterface
    public interface FlushRequestHandler {
        /**
         * Called on the writer thread, from inside another buffer's {@code put}; must read the buffer
         * merged and {@link WriteBuffer#clear() clear} it (or leave it as is to decline).
         */
        void flush(WriteBuffer buffer) throws IOException;
    }

    private final RowType keyType;
    private final MemoryPool pool;
    private final RowSerializer keySerializer;
    private final RowSerializer valueSerializer;
    private final NormalizedKeyPrefix prefix;
    private final InMemoryRun memory;
    private final SpilledRuns spills;
    private final Comparator<KeyValue> versionOrder;
    private final FlushRequestHandler flushHandler;
    private final ByteWriter scratch;
    private final List<byte[]> pendingPages = new ArrayList<>();
    /** The merged or sorted reader currently open, or null. */
    private RecordReader<KeyValue> openReader;
    private boolean inPut;
    private boolean flushing;
    private boolean closed;

    WriteBuffer(WriteBufferBuilder builder) {
        this.keyType = builder.keyType;
        this.pool = builder.pool;
        this.keySerializer = new RowSerializer(builder.keyType);
        this.valueSerializer = new RowSerializer(builder.valueType);
        this.prefix = new NormalizedKeyPrefix(builder.keyType);
        this.memory = new InMemoryRun(pool.pageSize(), new SerializedKeyComparator(keyType), prefix.isDetermining());
        this.spills = builder.spillDirectory == null
                ? null
                : new SpilledRuns(builder.spillDirectory, builder.maxSpillDiskBytes, builder.maxSpillFileHandles,
                        () -> new SerializedKeyComparator(keyType));
        this.versionOrder = builder.versionOrder;
        this.flushHandler = builder.flushHandler;
        this.scratch = new ByteWriter(Math.min(pool.pageSize(), 4096));
        pool.register(this);
    }

    /** Starts building a buffer for keys of {@code keyType} (orderable, NOT NULL) and value rows of {@code valueType}. */
    public static WriteBufferBuilder builder(RowType keyType, RowType valueType, MemoryPool pool) {
        return new WriteBufferBuilder(keyType, valueType, pool);
    }

    /**
     * Copies one record into the buffer. Returns false, leaving the buffer unchanged, when no page could be
     * obtained even after the pool preempted its owners (and this buffer could not spill): the writer must
     * drain this buffer and retry.
     *
     * @throws IllegalArgumentException if a key field is null or the record can never fit (its key is
     *     larger than a page, or it needs more pages than the whole pool)
     * @throws IOException if spilling (this or another buffer) failed; the record is not added
     */
    public boolean put(long sequenceNumber, RowKind kind, InternalRow key, InternalRow value) throws IOException {
        checkUsable("put a record into");
        for (int i = 0; i < keyType.fieldCount(); i++) {
            if (key.isNullAt(i)) {
                throw new IllegalArgumentException("Cannot buffer record with sequence number " + sequenceNumber
                        + ": primary key field '" + keyType.field(i).name() + "' is null");
            }
        }
        int headerAndKey = serialize(sequenceNumber, kind, key, value);
        int recordSize = scratch.position();
        int pageSize = pool.pageSize();
        if (headerAndKey > pageSize) {
            throw new IllegalArgumentException("Cannot buffer record with sequence number " + sequenceNumber
                    + ": its serialized key takes " + (headerAndKey - RecordLayout.HEADER_SIZE) + " bytes but must fit in one "
                    + pageSize + "-byte page");
        }
        if (1 + (recordSize + (long) pageSize - 1) / pageSize > pool.pageCount()) {
            throw new IllegalArgumentException("Cannot buffer record with sequence number " + sequenceNumber
                    + ": it takes " + recordSize + " bytes but the write buffer holds only " + pool.totalBytes()
                    + " bytes; raise write-buffer-size");
        }
        long keyPrefix = prefix.prefix(key);
        inPut = true;
        try {
            // A page request may make this buffer spill (emptying `memory`), so re-count on every round.
            while (memory.pagesNeeded(recordSize, headerAndKey) > pendingPages.size()) {
                byte[] page = pool.allocate(this);
                if (page == null) {
                    return false;
                }
                pendingPages.add(page);
            }
            memory.append(scratch.buffer(), recordSize, headerAndKey, keyPrefix, pendingPages);
            return true;
        } finally {
            // Pages left over (after a self-spill emptied the run, or after a failure) go back.
            releasePendingPages();
            inPut = false;
        }
    }

    /** Serializes the record into {@code scratch}; returns the size of its header and key. */
    private int serialize(long sequenceNumber, RowKind kind, InternalRow key, InternalRow value) {
        scratch.reset();
        scratch.writeInt(0);
        scratch.writeLong(sequenceNumber);
        scratch.writeByte(kind.toByteValue());
        scratch.writeInt(0);
        keySerializer.serialize(key, scratch);
        int keyLength = scratch.position() - RecordLayout.KEY_OFFSET;
        valueSerializer.serialize(value, scratch);
        scratch.setIntAt(RecordLayout.LENGTH_OFFSET, scratch.position() - 4);
        scratch.setIntAt(RecordLayout.KEY_LENGTH_OFFSET, keyLength);
        return RecordLayout.HEADER_SIZE + keyLength;
    }

    private void releasePendingPages() {
        pool.release(pendingPages);
        pendingPages.clear();
    }

    /** Records buffered (in memory and spilled), counting every version of a key. */
    public long size() {
        return memory.size() + (spills == null ? 0 : spills.records());
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** Bytes currently used by spill files. */
    public long spilledBytes() {
        return spills == null ? 0 : spills.diskBytes();
    }

    /** Spilled sorted runs not yet cleared. */
    public int spilledRunCount() {
        return spills == null ? 0 : spills.runCount();
    }

    @Override
    public long memoryOccupancy() {
        return (long) (memory.pageCount() + pendingPages.size()) * pool.pageSize();
    }

    @Override
    public void flushMemory() throws IOException {
        if (closed || flushing || openReader != null || memory.isEmpty()) {
            return;
        }
        flushing = true;
        try {
            if (spills != null && spills.canSpill(memory.recordBytes())) {
                spills.spill(memory);
                pool.release(memory.releasePages());
            } else if (!inPut && flushHandler != null) {
                flushHandler.flush(this);
            }
        } finally {
            flushing = false;
        }
    }

    /**
     * A reader over the merged records, sorted by key: per key, all versions in ascending sequence number
     * (or the configured version order) go through {@code mergeFunction} and its non-null result is
     * emitted once. Spilled runs are merged with the in-memory run. Close the reader before the next
     * {@code put} or {@code clear}; the buffer keeps its records until {@link #clear()}.
     */
    public RecordReader<KeyValue> mergedReader(MergeFunction mergeFunction) throws IOException {
        checkUsable("read");
        RecordCursor cursor = sortedCursor();
        openReader = new MergedKeyValueReader(cursor, keySerializer, valueSerializer,
                new SerializedKeyComparator(keyType), mergeFunction, versionOrder, false, () -> openReader = null);
        return openReader;
    }

    /**
     * {@link #mergedReader}, for a consumer that is done with each key-value before it asks for the next
     * (a file writer): the key-value it returns, and its rows, are valid only until the next call. Where
     * the merge function's result is the last version (deduplicate), they are one reused key-value whose
     * rows read the buffered bytes in place, so a flush decodes into no objects per record.
     */
    public RecordReader<KeyValue> mergedReaderReusingObjects(MergeFunction mergeFunction) throws IOException {
        checkUsable("read");
        RecordCursor cursor = sortedCursor();
        openReader = new MergedKeyValueReader(cursor, keySerializer, valueSerializer,
                new SerializedKeyComparator(keyType), mergeFunction, versionOrder, true, () -> openReader = null);
        return openReader;
    }

    /**
     * A reader over every buffered record, not merged: sorted by key, then ascending sequence number
     * (whatever the version order), so a key appears once per version. Spilled runs are included.
     * Close the reader before the next {@code put}, {@code clear} or other read; the buffer keeps its
     * records until {@link #clear()}, so it can be read again (e.g. merged).
     */
    public RecordReader<KeyValue> sortedReader() throws IOException {
        checkUsable("read");
        openReader = new SortedKeyValueReader(sortedCursor(), keySerializer, valueSerializer, () -> openReader = null);
        return openReader;
    }

    /** One cursor over the in-memory run and all spilled runs, in (key, sequence number) order. */
    private RecordCursor sortedCursor() throws IOException {
        memory.sort();
        List<RecordCursor> sources = new ArrayList<>(spills == null ? new ArrayList<>() : spills.openAll());
        if (!memory.isEmpty()) {
            sources.add(memory.sortedCursor());
        }
        return sources.size() == 1 ? sources.get(0) : new MergingCursor(sources, new SerializedKeyComparator(keyType));
    }

    /** Feeds every merged record (see {@link #mergedReader}) to {@code out}, then closes the reader. */
    public void forEachMerged(MergeFunction mergeFunction, Consumer<KeyValue> out) throws IOException {
        mergedReader(mergeFunction).forEachRemaining(out);
    }

    /** Drops all records: returns the pages to the pool and deletes the spill files. */
    public void clear() {
        checkUsable("clear");
        discard();
    }

    private void discard() {
        pool.release(memory.releasePages());
        if (spills != null) {
            spills.deleteAll();
        }
    }

    /** Visible for tests: merge passes run over spill files. */
    int mergePasses() {
        return spills == null ? 0 : spills.mergePasses();
    }

    private void checkUsable(String action) {
        if (closed) {
            throw new IllegalStateException("Cannot " + action + " the write buffer: it is closed");
        }
        if (openReader != null) {
            throw new IllegalStateException("Cannot " + action + " the write buffer: a reader is still open; "
                    + "close it first");
        }
    }

    /** Closes an open reader, releases all pages, deletes spill files and leaves the pool. Idempotent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            if (openReader != null) {
                openReader.close();
            }
        } finally {
            closed = true;
            discard();
            pool.unregister(this);
        }
    }
}
