package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.manifest.ManifestEntry;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Refuses to continue a partition of a fixed-bucket table whose files were written with another
 * bucket count than the table's {@code bucket} option now has (after {@code ALTER TABLE ... SET
 * ('bucket' = ...)}, docs/format.md §7): rows would be routed by the new count into buckets that already hold
 * other keys. Such a partition must first be rewritten with the new count by {@code CALL sys.rescale};
 * reads are unaffected (they use each file's own {@code _TOTAL_BUCKETS}).
 */
public final class BucketCountCheck {
    private BucketCountCheck() {}

    /**
     * Checks the live files of one partition before a writer continues it.
     *
     * @param table the table's full name, {@code db.t}
     * @param partition the partition's values by key, in key order; empty for an unpartitioned table
     * @param numBuckets the table's bucket count now; nothing is checked unless positive
     * @throws IllegalStateException naming the table, the partition, both counts and the way out
     */
    public static void check(String table, Map<String, String> partition, int numBuckets, List<ManifestEntry> liveFiles) {
        if (numBuckets <= 0) {
            return;
        }
        for (ManifestEntry e : liveFiles) {
            if (e.totalBuckets() != numBuckets) {
                String spec = partition.entrySet().stream().map(p -> p.getKey() + "=" + p.getValue())
                        .collect(Collectors.joining(","));
                String where = partition.isEmpty() ? "table " + table : "partition " + spec + " of table " + table;
                String call = partition.isEmpty()
                        ? "CALL sys.rescale(`table` => '" + table + "')"
                        : "CALL sys.rescale(`table` => '" + table + "', `partition` => '"
                                + spec + "')";
                throw new IllegalStateException("Cannot write to " + where + ": its files were written with "
                        + e.totalBuckets() + " buckets but the table's 'bucket' is now " + numBuckets
                        + "; rewrite it with the new bucket count first: " + call);
            }
        }
    }
}
