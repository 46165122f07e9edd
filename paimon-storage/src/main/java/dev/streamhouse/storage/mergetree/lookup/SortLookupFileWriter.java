package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.buffer.ByteWriter;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes a {@link LookupFileType#SORT} file: the entries ({@link EntryCodec}) in key order, cut into
 * blocks of about the block size. A block is its entries, then the 4-byte offset of each entry within
 * the block, then the 4-byte entry count; a block ends after the entry that reaches the block size, so
 * an entry is never split and a large one makes a block of its own. The first key, offset and length
 * of each block stay in heap as the file's sparse index. Not thread-safe.
 */
final class SortLookupFileWriter implements LookupFileWriter {
    private final RowType keyType;
    private final RowType valueType;
    private final int blockSizeBytes;
    private final LocalOutput out;
    private final EntryEncoder entries;
    private final ByteWriter block;
    private int[] entryOffsets = new int[64];
    private int blockEntries;
    private final List<InternalRow> firstKeys = new ArrayList<>();
    private long[] blockOffsets = new long[16];
    private int[] blockLengths = new int[16];
    private boolean finished;

    SortLookupFileWriter(Path path, RowType keyType, RowType valueType, LookupFileSettings settings,
            long expectedRecords) throws IOException {
        this.keyType = keyType;
        this.valueType = valueType;
        this.blockSizeBytes = settings.blockSizeBytes();
        this.entries = new EntryEncoder(keyType, valueType, EntryEncoder.bloomFor(settings, expectedRecords));
        this.block = new ByteWriter(Math.min(blockSizeBytes, 1 << 20) + 1024);
        this.out = new LocalOutput(path);
    }

    @Override
    public void add(KeyValue record, long rowPosition) throws IOException {
        checkOpen();
        entries.encode(record, rowPosition);
        if (blockEntries == 0) {
            firstKeys.add(entries.key());
        }
        if (blockEntries == entryOffsets.length) {
            entryOffsets = Arrays.copyOf(entryOffsets, blockEntries * 2);
        }
        entryOffsets[blockEntries++] = block.position();
        block.writeBytes(entries.bytes(), 0, entries.length());
        if (block.position() >= blockSizeBytes) {
            flushBlock();
        }
    }

    private void flushBlock() throws IOException {
        for (int i = 0; i < blockEntries; i++) {
            block.writeInt(entryOffsets[i]);
        }
        block.writeInt(blockEntries);
        int blocks = firstKeys.size();
        if (blocks > blockOffsets.length) {
            blockOffsets = Arrays.copyOf(blockOffsets, blocks * 2);
            blockLengths = Arrays.copyOf(blockLengths, blocks * 2);
        }
        blockOffsets[blocks - 1] = out.position();
        blockLengths[blocks - 1] = block.position();
        out.write(block.buffer(), 0, block.position());
        block.reset();
        blockEntries = 0;
    }

    @Override
    public LookupFile finish() throws IOException {
        checkOpen();
        if (blockEntries > 0) {
            flushBlock();
        }
        out.close();
        finished = true;
        int blocks = firstKeys.size();
        return new SortLookupFile(new PositionalFile(out.path()), keyType, valueType,
                firstKeys.toArray(new InternalRow[0]), Arrays.copyOf(blockOffsets, blocks),
                Arrays.copyOf(blockLengths, blocks), entries.bloomOrNull(), entries.count(), out.position());
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
