package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.buffer.ByteWriter;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes a {@link LookupFileType#HASH} file: the entries ({@link EntryCodec}) in file order, then a table of
 * a power-of-two number of slots filled by linear probing from {@code hash & (slots - 1)}, at most the load
 * factor full. A slot is 16 bytes: the entry's offset (8), its length (4, 0 for an empty slot) and the high
 * half of its key hash (4), so a probe reads an entry only when that half matches.
 *
 * <p>The slot table is built in heap (20 bytes per slot) while writing, sized for the expected records and
 * doubled when more come; it is written at the end and dropped from heap. Not thread-safe.
 */
final class HashLookupFileWriter implements LookupFileWriter {
    static final int SLOT_BYTES = 16;

    private final RowType keyType;
    private final RowType valueType;
    private final double loadFactor;
    private final LocalOutput out;
    private final EntryEncoder entries;
    private long[] hashes;
    private long[] offsets;
    private int[] lengths;
    private boolean finished;

    HashLookupFileWriter(Path path, RowType keyType, RowType valueType, LookupFileSettings settings,
            long expectedRecords) throws IOException {
        this.keyType = keyType;
        this.valueType = valueType;
        this.loadFactor = settings.hashLoadFactor();
        this.entries = new EntryEncoder(keyType, valueType, EntryEncoder.bloomFor(settings, expectedRecords));
        allocate(slotsFor(expectedRecords, loadFactor));
        this.out = new LocalOutput(path);
    }

    /** The power of two of slots that holds {@code records} (and one empty slot) within the load factor. */
    static int slotsFor(long records, double loadFactor) {
        long needed = Math.max(2, (long) Math.ceil((records + 1) / loadFactor));
        if (needed > (1 << 30)) {
            throw new IllegalArgumentException("Cannot build a hash lookup file of " + records
                    + " records: more than 2^30 slots; use 'lookup.local-file-type' = 'sort'");
        }
        return Integer.highestOneBit((int) needed - 1) << 1;
    }

    private void allocate(int slots) {
        hashes = new long[slots];
        offsets = new long[slots];
        lengths = new int[slots];
    }

    @Override
    public void add(KeyValue record, long rowPosition) throws IOException {
        checkOpen();
        long hash = entries.encode(record, rowPosition);
        long offset = out.position();
        out.write(entries.bytes(), 0, entries.length());
        if (entries.count() + 1 > (long) (lengths.length * loadFactor)) {
            grow();
        }
        insert(hash, offset, entries.length());
    }

    private void insert(long hash, long offset, int length) {
        int mask = lengths.length - 1;
        int slot = (int) (hash & mask);
        while (lengths[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        hashes[slot] = hash;
        offsets[slot] = offset;
        lengths[slot] = length;
    }

    private void grow() {
        long[] oldHashes = hashes;
        long[] oldOffsets = offsets;
        int[] oldLengths = lengths;
        allocate(oldLengths.length * 2);
        for (int i = 0; i < oldLengths.length; i++) {
            if (oldLengths[i] != 0) {
                insert(oldHashes[i], oldOffsets[i], oldLengths[i]);
            }
        }
    }

    @Override
    public LookupFile finish() throws IOException {
        checkOpen();
        long tableOffset = out.position();
        ByteWriter chunk = new ByteWriter(SLOT_BYTES * 4096);
        for (int i = 0; i < lengths.length; i++) {
            chunk.writeLong(offsets[i]);
            chunk.writeInt(lengths[i]);
            chunk.writeInt((int) (hashes[i] >>> 32));
            if (chunk.position() >= SLOT_BYTES * 4096) {
                out.write(chunk.buffer(), 0, chunk.position());
                chunk.reset();
            }
        }
        out.write(chunk.buffer(), 0, chunk.position());
        out.close();
        finished = true;
        int slots = lengths.length;
        hashes = null;
        offsets = null;
        lengths = null;
        return new HashLookupFile(new PositionalFile(out.path()), keyType, valueType, tableOffset, slots,
                entries.bloomOrNull(), entries.count(), out.position());
    }

    @Override
    public void abort() {
        if (!finished) {
            finished = true;
            out.abort();
        }
    }

    private void checkOpen() {
        if (finished) {
            throw new IllegalStateException("Cannot write lookup file " + out.path() + ": it is finished or aborted");
        }
    }
}
