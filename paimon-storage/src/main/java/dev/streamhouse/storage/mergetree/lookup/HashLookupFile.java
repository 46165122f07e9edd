package dev.streamhouse.storage.mergetree.lookup;

import static dev.streamhouse.storage.mergetree.lookup.HashLookupFileWriter.SLOT_BYTES;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.mergetree.buffer.ByteReader;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;

/**
 * A {@link LookupFileType#HASH} file (layout in {@link HashLookupFileWriter}). A lookup checks the Bloom
 * filter, then reads the slots from the key's home slot on, a few at a time, until an empty slot; an entry
 * is read (one more positional read) only for a slot whose hash half matches. Nothing but the Bloom filter
 * lives in heap. Thread-safe.
 */
final class HashLookupFile implements LookupFile {
    /** Slots read per positional read while probing; at the default load factor most probes need one. */
    private static final int SLOTS_PER_READ = 8;

    private final PositionalFile file;
    private final EntryCodec codec;
    private final KeyRowComparator comparator;
    private final KeyHasher hasher;
    private final long tableOffset;
    private final int slots;
    private final KeyBloomFilter bloomOrNull;
    private final long recordCount;
    private final long diskBytes;

    HashLookupFile(PositionalFile file, RowType keyType, RowType valueType, long tableOffset, int slots,
            KeyBloomFilter bloomOrNull, long recordCount, long diskBytes) {
        this.file = file;
        this.codec = new EntryCodec(keyType, valueType);
        this.comparator = new KeyRowComparator(keyType);
        this.hasher = new KeyHasher(keyType);
        this.tableOffset = tableOffset;
        this.slots = slots;
        this.bloomOrNull = bloomOrNull;
        this.recordCount = recordCount;
        this.diskBytes = diskBytes;
    }

    @Override
    public LookupEntry lookup(InternalRow key) throws IOException {
        long hash = hasher.hash(key);
        if (bloomOrNull != null && !bloomOrNull.mightContain(hash)) {
            return null;
        }
        int mask = slots - 1;
        int highHalf = (int) (hash >>> 32);
        byte[] chunk = new byte[SLOTS_PER_READ * SLOT_BYTES];
        ByteReader in = new ByteReader();
        int slot = (int) (hash & mask);
        // the table always has an empty slot, so the probe ends; the bound only guards a corrupt file
        for (int probed = 0; probed < slots;) {
            int n = Math.min(SLOTS_PER_READ, slots - slot);
            file.readFully(tableOffset + (long) slot * SLOT_BYTES, chunk, 0, n * SLOT_BYTES);
            for (int i = 0; i < n; i++, probed++) {
                in.reset(chunk, i * SLOT_BYTES);
                long offset = in.readLong();
                int length = in.readInt();
                if (length == 0) {
                    return null;
                }
                if (in.readInt() == highHalf) {
                    LookupEntry entry = readIfKey(offset, length, key);
                    if (entry != null) {
                        return entry;
                    }
                }
            }
            slot = (slot + n) & mask;
        }
        return null;
    }

    private LookupEntry readIfKey(long offset, int length, InternalRow key) throws IOException {
        ByteReader in = new ByteReader(file.read(offset, length), 0);
        GenericRow stored = codec.readKey(in);
        return comparator.compare(stored, key) == 0 ? codec.readAfterKey(stored, in) : null;
    }

    /** How many positional reads lookups made so far. */
    long readCount() {
        return file.readCount();
    }

    @Override
    public long recordCount() {
        return recordCount;
    }

    @Override
    public long diskBytes() {
        return diskBytes;
    }

    @Override
    public long heapBytes() {
        return bloomOrNull == null ? 0 : bloomOrNull.heapBytes();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    @Override
    public String toString() {
        return "HashLookupFile{" + file.path() + ", records=" + recordCount + ", slots=" + slots + "}";
    }
}
