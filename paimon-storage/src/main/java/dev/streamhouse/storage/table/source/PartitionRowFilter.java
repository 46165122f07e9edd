package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.options.PartitionOptions;
import dev.streamhouse.storage.partition.PartitionSpec;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.Table;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A partition spec ({@code dt=2024-01-01,hh=01} as a map) as a predicate over a table's full row, for
 * a read of exactly those partitions ({@code ReadBuilder} filters prune partitions by it). The
 * table's {@code partition.default-name} stands for NULL.
 */
public final class PartitionRowFilter {
    private PartitionRowFilter() {}

    /**
     * The predicate, or empty for the empty spec (every partition).
     *
     * @throws IllegalArgumentException naming the key and value if a key is not a partition key or a
     *     value does not fit its column
     */
    public static Optional<Predicate> of(Table table, Map<String, String> spec) {
        TableSchema schema = table.schema();
        PartitionSpec parsed = PartitionSpec.parse(schema.partitionType(), spec,
                schema.tableOptions().get(PartitionOptions.PARTITION_DEFAULT_NAME), table.fullName());
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        List<String> keys = schema.partitionType().fieldNames();
        int[] mapping = new int[keys.size()];
        for (int i = 0; i < mapping.length; i++) {
            mapping[i] = schema.rowType().fieldIndex(keys.get(i));
        }
        return PredicateBuilder.transformFieldMapping(parsed.predicate().orElseThrow(), mapping);
    }
}
