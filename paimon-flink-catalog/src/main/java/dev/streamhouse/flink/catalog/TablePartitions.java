package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.table.Table;

import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionImpl;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.expressions.ResolvedExpression;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The partitions of a partitioned data table's latest snapshot (those with live files), as Flink
 * partition specs with statistics. Spec values are the partition directory values
 * ({@code partition.default-name} for NULL; {@code partition.legacy-name} decides how dates and
 * timestamps are written). Reading the manifests fails with a {@link CatalogException}.
 */
final class TablePartitions {
    /** Statistics keys of {@link #toCatalogPartition}. */
    static final String NUM_ROWS = "numRows";
    static final String NUM_FILES = "numFiles";
    static final String TOTAL_SIZE = "totalSize";
    static final String LAST_UPDATE_TIME = "lastUpdateTime";

    /** One partition with its totals. */
    record Partition(BinaryRow row, CatalogPartitionSpec spec, dev.streamhouse.storage.table.Partition totals) {}

    private final Table table;
    private final String tableName;

    /** @param tableName the full table name, for messages */
    TablePartitions(Table table, String tableName) {
        this.table = table;
        this.tableName = tableName;
    }

    List<Partition> all() {
        try {
            List<Partition> out = new ArrayList<>();
            for (dev.streamhouse.storage.table.Partition p : table.partitions()) {
                out.add(new Partition(p.row(), new CatalogPartitionSpec(p.spec()), p));
            }
            return out;
        } catch (UncheckedIOException e) {
            throw new CatalogException("Cannot list the partitions of " + tableName + ": " + e.getMessage(), e);
        }
    }

    /** Partitions whose values include every entry of {@code partialSpec}, which must name partition keys only. */
    List<Partition> matching(CatalogPartitionSpec partialSpec) {
        List<String> keys = table.partitionKeys();
        for (String key : partialSpec.getPartitionSpec().keySet()) {
            if (!keys.contains(key)) {
                throw new CatalogException("Cannot use partition spec " + partialSpec.getPartitionSpec() + " on "
                        + tableName + ": '" + key + "' is not a partition key; partition keys are " + keys);
            }
        }
        return all().stream()
                .filter(p -> p.spec().getPartitionSpec().entrySet().containsAll(
                        partialSpec.getPartitionSpec().entrySet()))
                .collect(Collectors.toList());
    }

    /** The partition with exactly these values. */
    Optional<Partition> exact(CatalogPartitionSpec spec) {
        return all().stream().filter(p -> p.spec().equals(spec)).findFirst();
    }

    /**
     * Partitions satisfying all {@code filters}.
     *
     * @throws UnsupportedOperationException if a filter has no exact predicate on the partition columns
     */
    List<Partition> filtered(List<Expression> filters) {
        PredicateConverter converter = new PredicateConverter(table.schema().partitionType());
        List<Predicate> predicates = new ArrayList<>();
        for (Expression filter : filters) {
            Optional<Predicate> p = filter instanceof ResolvedExpression
                    ? converter.convert((ResolvedExpression) filter)
                    : Optional.empty();
            predicates.add(p.orElseThrow(() -> new UnsupportedOperationException("Cannot evaluate filter "
                    + filter.asSummaryString() + " on the partitions of " + tableName)));
        }
        if (predicates.isEmpty()) {
            return all();
        }
        Predicate all = PredicateBuilder.and(predicates);
        return all().stream().filter(p -> all.test(p.row())).collect(Collectors.toList());
    }

    static List<CatalogPartitionSpec> specs(List<Partition> partitions) {
        return partitions.stream().map(Partition::spec).collect(Collectors.toList());
    }

    /** The partition as Flink sees it: statistics as properties, no comment. */
    static CatalogPartition toCatalogPartition(Partition partition) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(NUM_ROWS, String.valueOf(partition.totals().recordCount()));
        properties.put(NUM_FILES, String.valueOf(partition.totals().fileCount()));
        properties.put(TOTAL_SIZE, String.valueOf(partition.totals().fileSizeInBytes()));
        if (partition.totals().lastFileCreationMillis() != null) {
            properties.put(LAST_UPDATE_TIME, String.valueOf(partition.totals().lastFileCreationMillis()));
        }
        return new CatalogPartitionImpl(properties, null);
    }
}
