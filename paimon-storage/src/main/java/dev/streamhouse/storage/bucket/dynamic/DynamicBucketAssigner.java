package dev.streamhouse.storage.bucket.dynamic;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;

/**
 * Assigns buckets to the keys of a dynamic-bucket primary-key table ({@code bucket = -1}, docs/format.md
 * §7.1) and, unless {@link #assignOnly()}, maintains the hash index files (docs/format.md §9.1) of the
 * buckets it changes. Table writes use it assign-only: the writer of each bucket maintains that bucket's
 * file ({@link HashIndexMaintainer}), as in Paimon. One instance per assigner task; not thread-safe.
 *
 * <p>Use: call {@link #assign} for <em>every</em> record, whatever its kind (a -D or -U record also
 * enters the index, as in Paimon), with the record's partition and the {@link BinaryRow#formatHash()}
 * of its trimmed primary key (docs/format.md §7.3). At each commit, {@link #prepareCommit()} writes a new,
 * complete index file for every (partition, bucket) that received new hashes and returns the changes
 * for the commit's index manifest.
 *
 * <p>State: a partition is loaded on first use from the index files the {@link HashIndexLoader}
 * lists (only the hashes {@link AssignerRouting routed} to this assigner are kept), then lives in a
 * {@link PartitionBucketIndex} (see there for the assignment rules, verified against Paimon 1.3.1).
 * The highest bucket number returned so far is shared by all partitions of the assigner, which
 * decides whether a partition may still open buckets under {@code max-buckets}.
 *
 * <p>Memory: 8–16 bytes per key hash held (about 12 MiB per million keys; Paimon quotes ~10 bytes),
 * plus 4 bytes per hash added since the last commit. Partitions are never evicted.
 *
 * <p>Commits: {@link #prepareCommit()} assumes the changes it returns get committed; the next
 * changes of a bucket replace the file returned here. If that commit fails, discard this assigner
 * (and delete the new files) and build a new one from the latest snapshot.
 */
public final class DynamicBucketAssigner {
    private final HashIndexFile indexFile;
    private final HashIndexLoader loader;
    private final long targetRowNum;
    private final int maxBuckets;
    private final AssignerRouting routing;
    private final HighestBucket highestBucket = new HighestBucket();
    private final Map<BinaryRow, PartitionState> partitions = new LinkedHashMap<>();
    /** Whether this assigner writes the index files ({@link #prepareCommit}) or only assigns. */
    private boolean writesIndex = true;
    private long newKeys;

    private static final class PartitionState {
        final PartitionBucketIndex index;
        /** The current index file of each bucket of the partition (restored or written by us). */
        final Map<Integer, IndexFileMeta> files = new HashMap<>();

        PartitionState(PartitionBucketIndex index) {
            this.index = index;
        }
    }

    /**
     * @param indexFile reads existing and writes new index files of the table
     * @param loader lists a partition's existing index files
     * @param targetRowNum {@code dynamic-bucket.target-row-num}, >= 1
     * @param maxBuckets {@code dynamic-bucket.max-buckets}, -1 (unlimited) or >= 1
     */
    public DynamicBucketAssigner(HashIndexFile indexFile, HashIndexLoader loader, long targetRowNum, int maxBuckets,
            AssignerRouting routing) {
        this.indexFile = Objects.requireNonNull(indexFile, "indexFile");
        this.loader = Objects.requireNonNull(loader, "loader");
        this.routing = Objects.requireNonNull(routing, "routing");
        this.targetRowNum = targetRowNum;
        this.maxBuckets = maxBuckets;
        PartitionBucketIndex.checkOptions(targetRowNum, maxBuckets);
    }

    /** An assigner configured by the table options {@code dynamic-bucket.target-row-num} and {@code .max-buckets}. */
    public static DynamicBucketAssigner create(Options tableOptions, HashIndexFile indexFile, HashIndexLoader loader,
            AssignerRouting routing) {
        return new DynamicBucketAssigner(indexFile, loader, tableOptions.get(MergeTreeOptions.DYNAMIC_BUCKET_TARGET_ROW_NUM),
                tableOptions.get(MergeTreeOptions.DYNAMIC_BUCKET_MAX_BUCKETS), routing);
    }

    /**
     * This assigner, assigning only: the writers of the buckets maintain the hash index files
     * ({@link HashIndexMaintainer}), so it keeps no pending changes and {@link #prepareCommit()} is
     * refused. Call before the first {@link #assign}.
     */
    public DynamicBucketAssigner assignOnly() {
        if (!partitions.isEmpty()) {
            throw new IllegalStateException("assignOnly() must be called before the first assign()");
        }
        writesIndex = false;
        return this;
    }

    /** Keys this assigner placed for the first time (not known from the index files it loaded), in total. */
    public long newKeys() {
        return newKeys;
    }

    /**
     * The bucket of a record in {@code partition} whose trimmed primary key has hash {@code keyHash}.
     *
     * @throws IllegalArgumentException if the record is routed to another assigner
     * @throws IOException if the partition's index cannot be loaded
     */
    public int assign(BinaryRow partition, int keyHash) throws IOException {
        int partitionHash = partition.formatHash();
        if (!routing.receives(partitionHash, keyHash)) {
            throw new IllegalArgumentException("Key hash " + keyHash + " of partition " + partition + " belongs to assigner "
                    + AssignerRouting.channel(partitionHash, keyHash, routing.numChannels(), routing.numAssigners())
                    + ", not to " + routing);
        }
        PartitionState state = partitions.get(partition);
        if (state == null) {
            state = load(partition.copy(), partitionHash);
        }
        int before = state.index.size();
        int bucket = state.index.assign(keyHash);
        if (state.index.size() != before) {
            newKeys++;
        }
        return bucket;
    }

    private PartitionState load(BinaryRow partition, int partitionHash) throws IOException {
        PartitionState state = new PartitionState(new PartitionBucketIndex(targetRowNum, maxBuckets, routing, highestBucket));
        if (!writesIndex) {
            state.index.stopTrackingChanges();
        }
        for (IndexManifestEntry entry : loader.hashIndexEntries(partition)) {
            IndexFileMeta file = entry.indexFile();
            if (entry.kind() != FileKind.ADD || !IndexFileMeta.HASH_INDEX.equals(file.indexType())
                    || !entry.partition().equals(partition)) {
                throw new IllegalArgumentException("Hash index loader returned " + entry + " for partition " + partition
                        + "; expected only ADD entries of type HASH of that partition");
            }
            int[] hashes = indexFile.read(partition, entry.bucket(), file);
            state.index.restoreBucket(entry.bucket(), hashes, hash -> routing.receives(partitionHash, hash));
            state.files.put(entry.bucket(), file);
        }
        partitions.put(partition, state);
        return state;
    }

    /**
     * Writes one complete index file per (partition, bucket) that received new hashes since the last
     * call — the bucket's previous file content plus the new hashes — and returns the changes,
     * partitions in first-use order, buckets ascending. On failure the files written by this call are
     * deleted and the pending changes are kept, so the call can be repeated.
     */
    public List<IndexChange> prepareCommit() throws IOException {
        if (!writesIndex) {
            throw new IllegalStateException("This dynamic-bucket assigner only assigns; the writers of its buckets"
                    + " maintain the hash index files");
        }
        if (!routing.ownsDisjointBuckets()) {
            throw new IllegalStateException("Cannot write hash index files from " + routing + ": another task of"
                    + " this layout may open the same buckets; let the buckets' writers maintain the index");
        }
        List<IndexChange> changes = new ArrayList<>();
        try {
            for (Map.Entry<BinaryRow, PartitionState> p : partitions.entrySet()) {
                PartitionState state = p.getValue();
                NavigableMap<Integer, int[]> pending = state.index.pendingChanges();
                for (Map.Entry<Integer, int[]> b : pending.entrySet()) {
                    IndexFileMeta old = state.files.get(b.getKey());
                    int[] hashes = b.getValue();
                    if (old != null) {
                        hashes = concat(indexFile.read(p.getKey(), b.getKey(), old), hashes);
                    }
                    changes.add(new IndexChange(p.getKey(), b.getKey(), indexFile.write(hashes), old));
                }
            }
        } catch (IOException | RuntimeException e) {
            for (IndexChange c : changes) {
                indexFile.deleteQuietly(c.newFile());
            }
            throw e;
        }
        for (IndexChange c : changes) {
            partitions.get(c.partition()).files.put(c.bucket(), c.newFile());
        }
        for (PartitionState state : partitions.values()) {
            state.index.clearPendingChanges();
        }
        return changes;
    }

    /** The commit's index manifest entries for {@code changes} (DELETE of each replaced file, ADD of each new one). */
    public static List<IndexManifestEntry> manifestEntries(List<IndexChange> changes) {
        List<IndexManifestEntry> entries = new ArrayList<>(changes.size() * 2);
        for (IndexChange c : changes) {
            entries.addAll(c.manifestEntries());
        }
        return entries;
    }

    /** Partitions held in memory. */
    public int partitionCount() {
        return partitions.size();
    }

    /** Approximate bytes of all partition indexes, for memory accounting. */
    public long memoryBytes() {
        long bytes = 0;
        for (PartitionState s : partitions.values()) {
            bytes += s.index.memoryBytes();
        }
        return bytes;
    }

    public AssignerRouting routing() {
        return routing;
    }

    private static int[] concat(int[] a, int[] b) {
        int[] all = new int[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
