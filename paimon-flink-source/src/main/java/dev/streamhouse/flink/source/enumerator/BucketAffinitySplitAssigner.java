package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.utils.MurmurHash;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Keeps every (partition, bucket) on one reader ({@link #owner}), computed from the binary form of
 * the partition, so the owner is the same on every JobManager and after a restore with the same
 * parallelism. Each reader's splits wait in one queue in the order they were added, which for a
 * streaming read is snapshot order; with the reader reading its splits in the order it gets them, the
 * changes of each key stay in order.
 *
 * <p>A restore with another parallelism moves buckets to other readers; that is safe because the
 * restored unassigned splits are all newer than every split in the readers' state, and each bucket's
 * splits are still added in order.
 */
public final class BucketAffinitySplitAssigner implements SplitAssigner {
    private final int parallelism;
    private final List<ArrayDeque<PaimonSplit>> queues;
    private int size;

    public BucketAffinitySplitAssigner(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("Cannot assign splits to " + parallelism + " readers");
        }
        this.parallelism = parallelism;
        this.queues = new ArrayList<>(parallelism);
        for (int i = 0; i < parallelism; i++) {
            queues.add(new ArrayDeque<>());
        }
    }

    /**
     * The reader that reads every split of {@code split}'s (partition, bucket): the buckets of one
     * partition go round-robin over the readers, starting at a reader picked by the partition's hash
     * (mixed, so that partitions whose hashes differ only in high bits still start apart).
     */
    public static int owner(DataSplit split, int parallelism) {
        return Math.floorMod(MurmurHash.fmix(split.partition().hashCode()) + split.bucket(), parallelism);
    }

    @Override
    public Optional<PaimonSplit> next(int subtask) {
        if (subtask < 0 || subtask >= parallelism) {
            return Optional.empty();
        }
        PaimonSplit split = queues.get(subtask).pollFirst();
        if (split != null) {
            size--;
        }
        return Optional.ofNullable(split);
    }

    @Override
    public void addSplits(Collection<PaimonSplit> splits) {
        for (PaimonSplit split : splits) {
            queues.get(owner(split.dataSplit(), parallelism)).addLast(split);
            size++;
        }
    }

    @Override
    public void addSplitsBack(Collection<PaimonSplit> splits) {
        List<PaimonSplit> reversed = new ArrayList<>(splits);
        java.util.Collections.reverse(reversed);
        for (PaimonSplit split : reversed) {
            queues.get(owner(split.dataSplit(), parallelism)).addFirst(split);
            size++;
        }
    }

    /** The unassigned splits reader by reader, each reader's in queue order (so per bucket in order). */
    @Override
    public List<PaimonSplit> remainingSplits() {
        List<PaimonSplit> out = new ArrayList<>(size);
        queues.forEach(out::addAll);
        return out;
    }

    /** The number of unassigned splits. */
    public int size() {
        return size;
    }
}
