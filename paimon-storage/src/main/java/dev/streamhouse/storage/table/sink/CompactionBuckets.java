package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.operation.FileStoreScan;
import dev.streamhouse.storage.operation.TableFeatureCheck;
import dev.streamhouse.storage.options.PartitionOptions;
import dev.streamhouse.storage.partition.PartitionSpec;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.table.FileStoreTable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The buckets a compaction of a table looks at: those with live files in the latest snapshot,
 * optionally only in some partitions, in manifest order without duplicates. Both the in-process
 * {@link TableCompactor} and the Flink compaction job plan with it.
 *
 * <p>Errors: {@link IOException} if the snapshot or its manifests cannot be read; an
 * {@code IllegalArgumentException} for a partition spec that does not fit the table's partition keys;
 * the storage's feature check for tables this version cannot write.
 */
public final class CompactionBuckets {
    private CompactionBuckets() {}

    /**
     * The live buckets of {@code table}'s latest snapshot in the partitions matching any of
     * {@code partitions} (each a spec; none, or an empty spec among them, for all partitions).
     */
    public static List<PartitionBucket> live(FileStoreTable table, List<Map<String, String>> partitions)
            throws IOException {
        FileStoreScan scan = table.newFileStoreScan().forAccess(TableFeatureCheck.Access.WRITE);
        if (!partitions.isEmpty()) {
            scan.withPartitionFilter(partitionFilter(table, partitions));
        }
        Set<PartitionBucket> out = new LinkedHashSet<>();
        for (ManifestEntry e : scan.plan().files()) {
            out.add(new PartitionBucket(e.partition(), e.bucket()));
        }
        return new ArrayList<>(out);
    }

    /** Any of the specs, or null (every partition) if one of them is empty. */
    private static Predicate partitionFilter(FileStoreTable table, List<Map<String, String>> partitions) {
        String defaultName = table.schema().tableOptions().get(PartitionOptions.PARTITION_DEFAULT_NAME);
        List<Predicate> any = new ArrayList<>();
        for (Map<String, String> raw : partitions) {
            PartitionSpec spec = PartitionSpec.parse(table.schema().partitionType(), raw, defaultName, table.fullName());
            if (spec.isEmpty()) {
                return null;
            }
            any.add(spec.predicate().orElseThrow());
        }
        return PredicateBuilder.or(any);
    }
}
