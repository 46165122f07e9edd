package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.EntryFilter;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.List;

import java.util.Set;

/**
 * Which manifests and entries a reader needs: by partition (a predicate over the partition row, or a
 * set of exact partitions) and by bucket. Manifest-level tests use the manifest list's partition
 * statistics and bucket ranges, so they may keep manifests that turn out to hold nothing relevant, but
 * never drop one that does.
 */
public final class ManifestFilter implements EntryFilter {
    public static final ManifestFilter ALL = new ManifestFilter(null, null, null);

    private final Predicate partitionPredicate;
    private final Set<BinaryRow> partitions;
    private final Integer bucket;

    public ManifestFilter(Predicate partitionPredicate, Set<BinaryRow> partitions, Integer bucket) {
        this.partitionPredicate = partitionPredicate;
        this.partitions = partitions;
        this.bucket = bucket;
    }

    /** Exactly these partitions; manifests are pruned with an equality predicate derived from them. */
    public static ManifestFilter partitions(RowType partitionType, Set<BinaryRow> partitions) {
        if (partitions.isEmpty() || partitionType.fieldCount() == 0) {
            return new ManifestFilter(null, partitions, null);
        }
        PredicateBuilder builder = new PredicateBuilder(partitionType);
        FieldGetter[] getters = InternalRowUtils.fieldGetters(partitionType.fieldTypes());
        List<Predicate> alternatives = new ArrayList<>();
        for (BinaryRow p : partitions) {
            List<Predicate> fields = new ArrayList<>();
            for (int i = 0; i < getters.length; i++) {
                Object v = getters[i].get(p);
                fields.add(v == null ? builder.isNull(i) : builder.equal(i, v));
            }
            alternatives.add(PredicateBuilder.and(fields));
        }
        return new ManifestFilter(PredicateBuilder.or(alternatives), partitions, null);
    }

    /** The same filter restricted to one bucket. */
    public ManifestFilter withBucket(Integer newBucket) {
        return new ManifestFilter(partitionPredicate, partitions, newBucket);
    }

    public boolean isAll() {
        return partitionPredicate == null && partitions == null && bucket == null;
    }

    /** Whether a manifest may hold entries this filter keeps. */
    public boolean mayMatch(ManifestFileMeta m) {
        return mayMatch(m.numAddedFiles() + m.numDeletedFiles(), m.partitionStats(), m.minBucket(), m.maxBucket());
    }

    @Override
    public boolean mayMatch(long count, SimpleStats stats, Integer minBucket, Integer maxBucket) {
        if (bucket != null && minBucket != null && maxBucket != null && (bucket < minBucket || bucket > maxBucket)) {
            return false;
        }
        if (partitionPredicate != null
                && stats.minValues().arity() > 0
                && !partitionPredicate.test(count, stats.minValues(), stats.maxValues(), stats.nullCounts())) {
            return false;
        }
        if (partitions != null && partitions.isEmpty()) {
            return false;
        }
        return true;
    }

    /** Whether an entry is kept. */
    public boolean matches(ManifestEntry e) {
        return matches(e.partition(), e.bucket());
    }

    /** Whether entries of this partition and bucket are kept. */
    @Override
    public boolean matches(BinaryRow partition, int entryBucket) {
        if (bucket != null && entryBucket != bucket) {
            return false;
        }
        return matchesPartition(partition);
    }

    /** Whether entries of this partition are kept (ignoring the bucket restriction). */
    public boolean matchesPartition(BinaryRow partition) {
        if (partitions != null && !partitions.contains(partition)) {
            return false;
        }
        return partitionPredicate == null || partitionPredicate.test(partition);
    }
}
