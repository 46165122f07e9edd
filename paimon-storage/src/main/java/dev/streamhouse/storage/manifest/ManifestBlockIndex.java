package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the entries of one manifest file lie, block by block: each Avro block's position in the file,
 * its entry count, and the partition statistics and bucket bounds of its entries. Built while a plan
 * reads a manifest too large for the {@link ManifestCache} to keep whole; later plans of a few
 * partitions decode only the blocks that may hold them. Since merged manifests are written in
 * {@link PartitionOrder}, a partition's entries lie in one or two blocks. Immutable.
 */
public final class ManifestBlockIndex {
    /**
     * @param position the block's sync position in the file (where a reader seeks to read it)
     * @param count the entries in the block
     */
    public record Block(long position, long count, SimpleStats partitionStats, int minBucket, int maxBucket) {}

    private final List<Block> blocks;

    ManifestBlockIndex(List<Block> blocks) {
        this.blocks = List.copyOf(blocks);
    }

    public List<Block> blocks() {
        return blocks;
    }

    /** The blocks {@code filter} may want, in file order. */
    List<Block> blocksFor(EntryFilter filter) {
        List<Block> wanted = new ArrayList<>();
        for (Block b : blocks) {
            if (filter.mayMatch(b.count(), b.partitionStats(), b.minBucket(), b.maxBucket())) {
                wanted.add(b);
            } else {
                filter.skipped(b.count());
            }
        }
        return wanted;
    }

    /**
     * The byte range of each of {@code wanted} (blocks of this index, in file order) in its file of
     * {@code fileSize} bytes, as {@code {start0, end0, start1, end1, ...}}: a block (with its closing sync
     * marker) ends where the file's next block starts, the last one at the end of the file.
     */
    long[] byteRanges(List<Block> wanted, long fileSize) {
        long[] out = new long[2 * wanted.size()];
        int next = 0;
        for (int i = 0; i < wanted.size(); i++) {
            long start = wanted.get(i).position();
            while (next < blocks.size() && blocks.get(next).position() <= start) {
                next++;
            }
            out[2 * i] = start;
            out[2 * i + 1] = next < blocks.size() ? blocks.get(next).position() : fileSize;
        }
        return out;
    }

    /** The bytes before the file's first block: its Avro header (magic, metadata, sync marker). */
    long headerLength() {
        return blocks.isEmpty() ? 0 : blocks.get(0).position();
    }

    /** About how much heap the index holds (see {@link ManifestCache#estimatedHeapBytes}). */
    long estimatedHeapBytes() {
        long bytes = 64;
        for (Block b : blocks) {
            SimpleStats s = b.partitionStats();
            bytes += 120 + 48 + s.minValues().sizeInBytes() + 48 + s.maxValues().sizeInBytes()
                    + (s.nullCounts() == null ? 0 : 16 + 24L * s.nullCounts().length);
        }
        return bytes;
    }

    /** Collects the blocks of a manifest read in file order. Not thread-safe. */
    static final class Builder {
        private final RowType partitionType;
        private final List<Block> blocks = new ArrayList<>();
        private long position = -1;
        private long count;
        private PartitionStatsCollector stats;
        private int minBucket;
        private int maxBucket;

        Builder(RowType partitionType) {
            this.partitionType = partitionType;
        }

        /** A new block starts at {@code blockPosition}. */
        void startBlock(long blockPosition) {
            finishBlock();
            position = blockPosition;
            count = 0;
            stats = new PartitionStatsCollector(partitionType);
            minBucket = Integer.MAX_VALUE;
            maxBucket = Integer.MIN_VALUE;
        }

        /** An entry of the current block. */
        void add(BinaryRow partition, int bucket) {
            if (position < 0) {
                throw new IllegalStateException("an entry before the first block");
            }
            count++;
            stats.add(partition);
            minBucket = Math.min(minBucket, bucket);
            maxBucket = Math.max(maxBucket, bucket);
        }

        ManifestBlockIndex build() {
            finishBlock();
            position = -1;
            return new ManifestBlockIndex(blocks);
        }

        private void finishBlock() {
            if (position >= 0 && count > 0) {
                blocks.add(new Block(position, count, stats.result(), minBucket, maxBucket));
            }
        }
    }
}
