package dev.streamhouse.storage.partition;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A partition spec as SQL writes it, {@code PARTITION (dt = '2024-01-01', hr = '1')}: string values
 * for some or all partition keys. A spec matches every partition whose values equal the given ones,
 * so a partial spec of a multi-level partitioning matches all sub-partitions, and the empty spec
 * matches every partition. Values are converted with the partition column types
 * ({@link PartitionValues}); the table's default partition name ({@code partition.default-name})
 * stands for NULL. Immutable.
 */
public final class PartitionSpec {
    private final Map<String, String> spec;
    private final Predicate predicate;

    private PartitionSpec(Map<String, String> spec, Predicate predicate) {
        this.spec = spec;
        this.predicate = predicate;
    }

    /**
     * Parses {@code spec} against the partition keys of a table.
     *
     * @param partitionType the partition columns in partition-key order
     * @param defaultPartitionName the name that stands for NULL
     * @param table the table, for messages
     * @throws IllegalArgumentException naming the key and value if a key is not a partition key or a
     *     value does not fit the column type
     */
    public static PartitionSpec parse(RowType partitionType, Map<String, String> spec, String defaultPartitionName,
            String table) {
        PredicateBuilder builder = new PredicateBuilder(partitionType);
        List<Predicate> equalities = new ArrayList<>();
        Map<String, String> kept = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : spec.entrySet()) {
            String key = e.getKey();
            int index = partitionType.fieldIndex(key);
            if (index < 0) {
                throw new IllegalArgumentException("Cannot use partition spec " + spec + " for table " + table + ": '"
                        + key + "' is not a partition key; partition keys are " + partitionType.fieldNames());
            }
            String text = e.getValue();
            if (text == null || text.equals(defaultPartitionName)) {
                equalities.add(builder.isNull(index));
            } else {
                Object value;
                try {
                    value = PartitionValues.fromString(text, partitionType.typeAt(index));
                } catch (IllegalArgumentException bad) {
                    throw new IllegalArgumentException("Cannot use partition spec " + spec + " for table " + table
                            + ": value '" + text + "' of partition key '" + key + "' is not a valid "
                            + partitionType.typeAt(index).copy(true) + " (" + bad.getMessage() + ")", bad);
                }
                equalities.add(builder.equal(index, value));
            }
            kept.put(key, text);
        }
        return new PartitionSpec(Collections.unmodifiableMap(kept),
                equalities.isEmpty() ? null : PredicateBuilder.and(equalities));
    }

    /** Whether the spec names no key (it matches every partition). */
    public boolean isEmpty() {
        return predicate == null;
    }

    /** The spec as given, key to string value. */
    public Map<String, String> values() {
        return spec;
    }

    /** A predicate over the partition row, or empty for the empty spec. */
    public Optional<Predicate> predicate() {
        return Optional.ofNullable(predicate);
    }

    /** Whether the partition has the values of this spec. */
    public boolean matches(BinaryRow partition) {
        return predicate == null || predicate.test(partition);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : spec.entrySet()) {
            if (sb.length() > 0) {
                sb.append('/');
            }
            sb.append(e.getKey()).append('=').append(e.getValue());
        }
        return sb.length() == 0 ? "<all partitions>" : sb.toString();
    }
}
