package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.operation.FileStoreScan;
import dev.streamhouse.storage.operation.TableFeatureCheck;
import dev.streamhouse.storage.options.PartitionOptions;
import dev.streamhouse.storage.partition.PartitionSpec;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

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
 * <p>Errors: {@link IOException} if the snapshot or its manifests cannot be read;
 * {@link UnsupportedOperationException} for a table not stored in the Paimon format; an
 * {@code IllegalArgumentException} for a partition spec that does not fit the table's partition keys;
 * the storage's feature check for tables this version cannot write.
 */
public final class CompactionBuckets {
    private CompactionBuckets() {}

    /** One bucket of one partition. */
    public record Bucket(BinaryRow partition, int bucket) {}

    /**
     * The live buckets of {@code table}'s latest snapshot in the partitions matching any of
     * {@code partitions} (each a spec; none, or an empty spec among them, for all partitions).
     */
    public static List<Bucket> live(Table table, List<Map<String, String>> partitions) throws IOException {
        FileStoreTable store = fileStoreTable(table, "list the buckets of");
        return liveIn(store, partitions);
    }

    private static List<Bucket> liveIn(FileStoreTable table, List<Map<String, String>> partitions) throws IOException {
        FileStoreScan scan = table.newFileStoreScan().forAccess(TableFeatureCheck.Access.WRITE);
        if (!partitions.isEmpty()) {
            scan.withPartitionFilter(partitionFilter(table, partitions));
        }
        Set<Bucket> out = new LinkedHashSet<>();
        for (ManifestEntry e : scan.plan().files()) {
            out.add(new Bucket(e.partition(), e.bucket()));
        }
        return new ArrayList<>(out);
    }

    /** {@code table} as the storage's own table, or an error naming what {@code action} needs. */
    static FileStoreTable fileStoreTable(Table table, String action) {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedOperationException("Cannot " + action + " table " + table.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return (FileStoreTable) table;
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
