package dev.streamhouse.storage.bucket.dynamic;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.IntPredicate;

/**
 * The dynamic-bucket state of one partition as seen by one assigner: which bucket each key hash
 * belongs to, and how full the assigner's own buckets are. Not thread-safe.
 *
 * <p>{@link #assign(int)} follows Apache Paimon 1.3 (verified against the 1.3.1 jar, see the e2e
 * test {@code DynamicBucketAssignerInteropTest}):
 *
 * <ol>
 *   <li>A hash already known keeps its bucket (restored from index files or assigned earlier). Hashes
 *       are never forgotten, whatever the record kind: a key deleted with -D keeps its bucket.
 *   <li>Otherwise it goes to the first own bucket with fewer than {@code targetRowNum} keys, trying
 *       buckets in the iteration order of a {@link HashMap} from bucket number to key count that is
 *       filled like Paimon's: restored buckets through {@link HashMap#compute} in index-manifest
 *       order, then newly opened buckets through {@link HashMap#put}; a bucket found full is removed
 *       from it for good. In practice only the most recently opened bucket is not full, and after a
 *       restore the partly filled buckets are tried by ascending number (for bucket numbers below the
 *       map's capacity; in the same hash slot, later manifest entries first).
 *   <li>Otherwise a new bucket is opened — the lowest own bucket number (see
 *       {@link AssignerRouting#ownsBucket}) not yet used in this partition — provided the partition
 *       has no own bucket yet, or the highest bucket number this <em>assigner</em> has returned so far
 *       in any partition is below the highest allowed number ({@code maxBuckets - 1}, or 32766 when
 *       unlimited). This assigner-wide test is Paimon 1.3's: once one partition reaches
 *       {@code maxBuckets}, a partition seen later opens only its first bucket.
 *   <li>Otherwise (no bucket may be opened) the key goes to one of the partition's own buckets.
 *       Paimon picks one at random; we pick by the key hash (deterministic, roughly uniform), which is
 *       equally compatible because the choice is recorded in the hash index. If no own bucket exists
 *       (max-buckets too small for this assigner) or an unlimited assigner ran out of bucket numbers,
 *       {@link IllegalStateException}.
 * </ol>
 *
 * <p>Bucket numbers are at most 32767 ({@code Short.MAX_VALUE}): Paimon stores them as 16-bit
 * values, and its 1.3.1 assigner wraps to negative numbers beyond that. So {@code maxBuckets}
 * above 32768 acts as 32768, and unlimited ({@code -1}) opens at most buckets 0..32766, as Paimon
 * does.
 *
 * <p>Changes: every hash that enters the index through {@link #assign} is remembered per bucket
 * until {@link #clearPendingChanges()}; restored hashes are not changes.
 *
 * <p>Memory: the hash map takes 8–16 bytes per key (see {@code HashToBucketMap}); pending changes
 * take about 4 more bytes per key added since the last commit.
 */
public final class PartitionBucketIndex {
    /** Highest bucket number an unlimited assigner opens (Paimon: {@code Short.MAX_VALUE - 1}). */
    static final int UNLIMITED_HIGHEST_BUCKET = Short.MAX_VALUE - 1;

    private final long targetRowNum;
    private final int maxBuckets;
    private final int highestAllowedBucket;
    private final AssignerRouting routing;
    private final HighestBucket assignerHighest;

    private final HashToBucketMap hashToBucket = new HashToBucketMap();
    /** Own buckets that may still be not full, with their key counts; Paimon's iteration order matters. */
    private final Map<Integer, Long> candidates = new HashMap<>();
    private final BitSet ownBuckets = new BitSet();
    private int[] ownBucketsSorted;
    private final TreeMap<Integer, IntList> pending = new TreeMap<>();
    /** Whether {@link #assign} records new hashes as pending changes. */
    private boolean tracksChanges = true;

    /**
     * An empty index for a standalone assigner (tracks its own highest bucket).
     *
     * @param targetRowNum keys per bucket before another is used ({@code dynamic-bucket.target-row-num}), >= 1
     * @param maxBuckets most buckets per partition ({@code dynamic-bucket.max-buckets}), -1 for unlimited
     */
    public PartitionBucketIndex(long targetRowNum, int maxBuckets, AssignerRouting routing) {
        this(targetRowNum, maxBuckets, routing, new HighestBucket());
    }

    PartitionBucketIndex(long targetRowNum, int maxBuckets, AssignerRouting routing, HighestBucket assignerHighest) {
        checkOptions(targetRowNum, maxBuckets);
        this.targetRowNum = targetRowNum;
        this.maxBuckets = maxBuckets;
        this.highestAllowedBucket = maxBuckets == -1
                ? UNLIMITED_HIGHEST_BUCKET
                : Math.min(maxBuckets, HashToBucketMap.MAX_BUCKET + 1) - 1;
        this.routing = Objects.requireNonNull(routing, "routing");
        this.assignerHighest = Objects.requireNonNull(assignerHighest, "assignerHighest");
    }

    /** Rejects a target row number below 1 and a max-buckets other than -1 or a positive number. */
    static void checkOptions(long targetRowNum, int maxBuckets) {
        if (targetRowNum < 1) {
            throw new IllegalArgumentException("'dynamic-bucket.target-row-num' must be at least 1, got " + targetRowNum);
        }
        if (maxBuckets == 0 || maxBuckets < -1) {
            throw new IllegalArgumentException("'dynamic-bucket.max-buckets' must be -1 (unlimited) or at least 1, got "
                    + maxBuckets);
        }
    }

    /**
     * Adds one bucket's index file content, as read from the latest snapshot. Call once per index
     * file, in index-manifest order, before the first {@link #assign}. Hashes accepted by
     * {@code receivesHash} (those routed to this assigner) are mapped to {@code bucket}; if this
     * assigner owns the bucket and the file is not empty, the bucket counts as used with
     * {@code hashes.length} keys (all of them, routed here or not).
     */
    public void restoreBucket(int bucket, int[] hashes, IntPredicate receivesHash) {
        if (bucket < 0 || bucket > HashToBucketMap.MAX_BUCKET) {
            throw new IllegalArgumentException("bucket " + bucket + " is outside [0, " + HashToBucketMap.MAX_BUCKET + "]");
        }
        for (int hash : hashes) {
            if (receivesHash.test(hash)) {
                hashToBucket.put(hash, bucket);
            }
        }
        if (hashes.length > 0 && routing.ownsBucket(bucket)) {
            long n = hashes.length;
            candidates.compute(bucket, (b, count) -> count == null ? n : count + n);
            addOwnBucket(bucket);
        }
    }

    /** The bucket for a key with this hash; see the class comment for the rules. */
    public int assign(int hash) {
        int bucket = hashToBucket.get(hash);
        if (bucket < 0) {
            bucket = chooseForNewKey(hash);
            hashToBucket.put(hash, bucket);
            if (tracksChanges) {
                pending.computeIfAbsent(bucket, b -> new IntList()).add(hash);
            }
        }
        assignerHighest.observe(bucket);
        return bucket;
    }

    private int chooseForNewKey(int hash) {
        Iterator<Map.Entry<Integer, Long>> it = candidates.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Integer, Long> e = it.next();
            if (e.getValue() < targetRowNum) {
                e.setValue(e.getValue() + 1);
                return e.getKey();
            }
            it.remove();
        }
        if (ownBuckets.isEmpty() || assignerHighest.value() < highestAllowedBucket) {
            for (int b = routing.firstBucket(); b <= highestAllowedBucket; b += routing.numAssigners()) {
                if (!ownBuckets.get(b)) {
                    candidates.put(b, 1L);
                    addOwnBucket(b);
                    return b;
                }
            }
            if (maxBuckets == -1) {
                throw new IllegalStateException("Cannot open another dynamic bucket for " + routing
                        + ": all bucket numbers up to " + highestAllowedBucket + " are in use in this partition");
            }
        }
        int[] own = ownBucketsSorted();
        if (own.length == 0) {
            throw new IllegalStateException("Cannot assign a bucket for " + routing + ": 'dynamic-bucket.max-buckets' = "
                    + maxBuckets + " leaves this assigner no bucket number (it owns "
                    + routing.firstBucket() + " and every " + routing.numAssigners() + "th after it)");
        }
        long spread = ((hash * 0x9E3779B9) & 0xFFFFFFFFL) * own.length >>> 32;
        return own[(int) spread];
    }

    private void addOwnBucket(int bucket) {
        if (!ownBuckets.get(bucket)) {
            ownBuckets.set(bucket);
            ownBucketsSorted = null;
        }
    }

    private int[] ownBucketsSorted() {
        if (ownBucketsSorted == null) {
            ownBucketsSorted = ownBuckets.stream().toArray();
        }
        return ownBucketsSorted;
    }

    /** The bucket of a known hash, or -1; does not assign. */
    public int bucketOf(int hash) {
        return hashToBucket.get(hash);
    }

    /** Key hashes known to this index. */
    public int size() {
        return hashToBucket.size();
    }

    /** Buckets of this partition this assigner owns and uses, ascending. */
    public int[] ownBuckets() {
        return ownBucketsSorted().clone();
    }

    /**
     * Hashes added per bucket since the last {@link #clearPendingChanges()}, by ascending bucket, each
     * array in insertion order. A fresh copy.
     */
    public NavigableMap<Integer, int[]> pendingChanges() {
        TreeMap<Integer, int[]> copy = new TreeMap<>();
        pending.forEach((b, list) -> copy.put(b, list.toArray()));
        return Collections.unmodifiableNavigableMap(copy);
    }

    /**
     * Stops recording pending changes (for an assigner whose buckets' writers maintain the index
     * files, see {@code HashIndexMaintainer}) and forgets those recorded so far.
     */
    void stopTrackingChanges() {
        tracksChanges = false;
        pending.clear();
    }

    public boolean hasPendingChanges() {
        return !pending.isEmpty();
    }

    /** Forgets the pending changes (after they were written and committed). */
    public void clearPendingChanges() {
        pending.clear();
    }

    /** Approximate bytes held by this index (hash map plus pending changes), for memory accounting. */
    public long memoryBytes() {
        long bytes = hashToBucket.memoryBytes();
        for (IntList list : pending.values()) {
            bytes += (long) list.size() * Integer.BYTES;
        }
        return bytes;
    }

    @Override
    public String toString() {
        return "PartitionBucketIndex[" + size() + " hashes, own buckets " + Arrays.toString(ownBucketsSorted()) + "]";
    }
}
