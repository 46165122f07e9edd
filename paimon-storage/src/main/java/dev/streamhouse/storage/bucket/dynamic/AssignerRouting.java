package dev.streamhouse.storage.bucket.dynamic;

/**
 * Which keys a dynamic-bucket assigner receives and which bucket numbers it may open, when several
 * assigners run in parallel. Matches Apache Paimon 1.3 (verified against the 1.3.1 jar):
 *
 * <ul>
 *   <li>{@code numChannels} is the number of parallel assigner tasks and {@code assignerId} the
 *       task index in {@code [0, numChannels)}. {@code numAssigners} is how many of them serve one
 *       partition; Paimon's Flink sink uses {@code min(dynamic-bucket.initial-buckets,
 *       numChannels)}, or {@code numChannels} when the option is unset (see
 *       {@link #numAssigners(Integer, int)}).
 *   <li>A record with partition hash {@code p} ({@code partition.formatHash()}) and key hash
 *       {@code k} goes to task {@code (|p % numChannels| + |k % numAssigners|) % numChannels}
 *       ({@link #channel}); Java remainders, so a partition's keys spread over
 *       {@code numAssigners} consecutive tasks (wrapping) starting at {@code |p % numChannels|}.
 *   <li>Task {@code assignerId} opens only buckets {@code b} with
 *       {@code b % numAssigners == assignerId % numAssigners}: {@code assignerId % numAssigners},
 *       then every {@code numAssigners}-th number after it.
 * </ul>
 *
 * <p>When {@code numChannels} is not a multiple of {@code numAssigners}, two tasks serving the same
 * partition can own the same bucket numbers (e.g. 3 tasks, 2 assigners: tasks 2 and 0 both own even
 * buckets of a partition starting at task 2). As in Paimon this is harmless when the writers of the
 * buckets maintain the hash index files ({@link HashIndexMaintainer}); an assigner that writes index
 * files itself ({@link DynamicBucketAssigner#prepareCommit()}) needs a layout where it is a multiple.
 */
public final class AssignerRouting {
    private final int numChannels;
    private final int numAssigners;
    private final int assignerId;

    /**
     * @param numChannels parallel assigner tasks, at least 1
     * @param numAssigners assigners per partition, in {@code [1, numChannels]}
     * @param assignerId this task, in {@code [0, numChannels)}
     */
    public AssignerRouting(int numChannels, int numAssigners, int assignerId) {
        if (numChannels < 1 || numAssigners < 1 || numAssigners > numChannels) {
            throw new IllegalArgumentException("Invalid dynamic-bucket assigner layout: " + numAssigners
                    + " assigners per partition over " + numChannels + " tasks; need 1 <= assigners <= tasks");
        }
        if (assignerId < 0 || assignerId >= numChannels) {
            throw new IllegalArgumentException("Assigner id " + assignerId + " is outside [0, " + numChannels + ")");
        }
        this.numChannels = numChannels;
        this.numAssigners = numAssigners;
        this.assignerId = assignerId;
    }

    /** One assigner that receives every key and may open every bucket. */
    public static AssignerRouting single() {
        return new AssignerRouting(1, 1, 0);
    }

    /**
     * Assigners per partition as Paimon's Flink sink derives them: {@code initialBuckets} (option
     * {@code dynamic-bucket.initial-buckets}, null if unset) capped by the task count.
     */
    public static int numAssigners(Integer initialBuckets, int numChannels) {
        return initialBuckets == null ? numChannels : Math.min(initialBuckets, numChannels);
    }

    /** The assigner task of a record: {@code (|p % numChannels| + |k % numAssigners|) % numChannels}. */
    public static int channel(int partitionHash, int keyHash, int numChannels, int numAssigners) {
        return (Math.abs(partitionHash % numChannels) + Math.abs(keyHash % numAssigners)) % numChannels;
    }

    /** Whether this assigner receives records with these hashes. */
    public boolean receives(int partitionHash, int keyHash) {
        return channel(partitionHash, keyHash, numChannels, numAssigners) == assignerId;
    }

    /** Whether this assigner may open {@code bucket}. */
    public boolean ownsBucket(int bucket) {
        return bucket % numAssigners == assignerId % numAssigners;
    }

    /** The lowest bucket this assigner may open; the next ones follow every {@link #numAssigners()}. */
    public int firstBucket() {
        return assignerId % numAssigners;
    }

    public int numChannels() {
        return numChannels;
    }

    public int numAssigners() {
        return numAssigners;
    }

    /** Whether no two tasks of this layout can open the same bucket number of a partition. */
    public boolean ownsDisjointBuckets() {
        return numChannels % numAssigners == 0;
    }

    public int assignerId() {
        return assignerId;
    }

    @Override
    public String toString() {
        return "assigner " + assignerId + " of " + numChannels + " tasks, " + numAssigners + " per partition";
    }
}
