package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.mergetree.buffer.ByteReader;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;

/**
 * A {@link LookupFileType#SORT} file (layout in {@link SortLookupFileWriter}). A lookup checks the Bloom
 * filter, binary-searches the in-heap first keys for the one block that may hold the key, reads that
 * block with one positional read and binary-searches its entry offsets, decoding only the keys it
 * compares. Thread-safe.
 */
final class SortLookupFile implements LookupFile {
    /** Rough heap of a decoded first key: the row, its field array and header, beyond 16 bytes a field. */
    private static final int KEY_OVERHEAD_BYTES = 48;
    /** Heap of one block's index entry besides its key: the offset, the length and the key's reference. */
    private static final int INDEX_ENTRY_BYTES = Long.BYTES + Integer.BYTES + 8;

    private final PositionalFile file;
    private final EntryCodec codec;
    private final KeyRowComparator comparator;
    private final KeyHasher hasher;
    private final InternalRow[] firstKeys;
    private final long[] blockOffsets;
    private final int[] blockLengths;
    private final KeyBloomFilter bloomOrNull;
    private final long recordCount;
    private final long diskBytes;
    private final long heapBytes;

    SortLookupFile(PositionalFile file, RowType keyType, RowType valueType, InternalRow[] firstKeys,
            long[] blockOffsets, int[] blockLengths, KeyBloomFilter bloomOrNull, long recordCount, long diskBytes) {
        this.file = file;
        this.codec = new EntryCodec(keyType, valueType);
        this.comparator = new KeyRowComparator(keyType);
        this.hasher = new KeyHasher(keyType);
        this.firstKeys = firstKeys;
        this.blockOffsets = blockOffsets;
        this.blockLengths = blockLengths;
        this.bloomOrNull = bloomOrNull;
        this.recordCount = recordCount;
        this.diskBytes = diskBytes;
        this.heapBytes = (bloomOrNull == null ? 0 : bloomOrNull.heapBytes())
                + (long) firstKeys.length * (INDEX_ENTRY_BYTES + KEY_OVERHEAD_BYTES + 16L * keyType.fieldCount());
    }

    @Override
    public LookupEntry lookup(InternalRow key) throws IOException {
        if (bloomOrNull != null && !bloomOrNull.mightContain(hasher.hash(key))) {
            return null;
        }
        int b = floorBlock(key);
        if (b < 0) {
            return null;
        }
        byte[] block = file.read(blockOffsets[b], blockLengths[b]);
        ByteReader in = new ByteReader(block, block.length - Integer.BYTES);
        int entries = in.readInt();
        int offsetsStart = block.length - Integer.BYTES - entries * Integer.BYTES;
        int low = 0;
        int high = entries - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int entryOffset = in.reset(block, offsetsStart + mid * Integer.BYTES).readInt();
            GenericRow candidate = codec.readKey(in.reset(block, entryOffset));
            int c = comparator.compare(candidate, key);
            if (c < 0) {
                low = mid + 1;
            } else if (c > 0) {
                high = mid - 1;
            } else {
                return codec.readAfterKey(candidate, in);
            }
        }
        return null;
    }

    /** The last block whose first key is not greater than {@code key}, or -1. */
    private int floorBlock(InternalRow key) {
        int low = 0;
        int high = firstKeys.length - 1;
        int found = -1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (comparator.compare(firstKeys[mid], key) <= 0) {
                found = mid;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return found;
    }

    /** How many blocks the file has. */
    int blockCount() {
        return firstKeys.length;
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
        return heapBytes;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    @Override
    public String toString() {
        return "SortLookupFile{" + file.path() + ", records=" + recordCount + ", blocks=" + firstKeys.length + "}";
    }
}
