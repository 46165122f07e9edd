package dev.streamhouse.storage.partition;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.options.PartitionOptions;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The partitions that option {@code scan.partitions} selects, as Paimon writes it:
 * <ul>
 *   <li>fixed partitions, {@code k1=v1,k2=v2;k1=v3,k2=v4}: partitions separated by {@code ;}, keys by
 *       {@code ,}; a partition key left out stands for NULL ({@code partition.default-name});</li>
 *   <li>for lookup joins, the newest partitions: {@code max_pt()} (the largest partition),
 *       {@code max_two_pt()} (the two largest), or {@code k1=max_pt()} / {@code k1=max_pt(),k2=max_pt()}
 *       (every partition with the largest value of the first keys, level by level; the named keys must
 *       be the first partition keys).</li>
 * </ul>
 * Partitions compare field by field in the format's natural order. Immutable.
 */
public final class ScanPartitions {
    private static final String MAX_PT = "max_pt()";
    private static final String MAX_TWO_PT = "max_two_pt()";

    private final String text;
    private final RowType partitionType;
    private final int[] tablePositions;
    private final List<PartitionSpec> fixed;
    /** Dynamic: how many of the largest partitions (0 when by levels or fixed). */
    private final int largest;
    /** Dynamic by levels: how many leading partition keys take their largest value (0 otherwise). */
    private final int levels;

    private ScanPartitions(String text, TableSchema schema, List<PartitionSpec> fixed, int largest, int levels) {
        this.text = text;
        this.partitionType = schema.partitionType();
        this.tablePositions = schema.partitionPositions();
        this.fixed = fixed;
        this.largest = largest;
        this.levels = levels;
    }

    /**
     * Parses the option value.
     *
     * @throws IllegalArgumentException naming the option, value and table if it is malformed, names a
     *     column that is not a partition key, or the table is not partitioned
     */
    public static ScanPartitions parse(String text, TableSchema schema, String tableName) {
        String value = text.trim();
        if (schema.partitionKeys().isEmpty()) {
            throw invalid(text, tableName, "the table is not partitioned");
        }
        if (value.equalsIgnoreCase(MAX_PT)) {
            return new ScanPartitions(text, schema, List.of(), 1, 0);
        }
        if (value.equalsIgnoreCase(MAX_TWO_PT)) {
            return new ScanPartitions(text, schema, List.of(), 2, 0);
        }
        List<String> keys = schema.partitionKeys();
        if (value.toLowerCase().contains(MAX_PT)) {
            String[] parts = value.split(",");
            for (int i = 0; i < parts.length; i++) {
                String[] kv = parts[i].split("=", 2);
                if (kv.length != 2 || !kv[1].trim().equalsIgnoreCase(MAX_PT)) {
                    throw invalid(text, tableName, "'" + parts[i].trim() + "' is not 'key=max_pt()'");
                }
                if (i >= keys.size() || !keys.get(i).equals(kv[0].trim())) {
                    throw invalid(text, tableName, "max_pt() levels must name the first partition keys in order "
                            + keys + "; got '" + kv[0].trim() + "' at level " + (i + 1));
                }
            }
            return new ScanPartitions(text, schema, List.of(), 0, parts.length);
        }
        String defaultName = schema.tableOptions().get(PartitionOptions.PARTITION_DEFAULT_NAME);
        List<PartitionSpec> specs = new ArrayList<>();
        for (String partition : value.split(";")) {
            if (partition.isBlank()) {
                continue;
            }
            Map<String, String> spec = new LinkedHashMap<>();
            for (String key : keys) {
                spec.put(key, null);
            }
            for (String pair : partition.split(",")) {
                String[] kv = pair.split("=", 2);
                if (kv.length != 2 || kv[0].isBlank()) {
                    throw invalid(text, tableName, "'" + pair.trim() + "' is not 'key=value'");
                }
                if (!keys.contains(kv[0].trim())) {
                    throw invalid(text, tableName, "'" + kv[0].trim() + "' is not a partition key; partition keys are "
                            + keys);
                }
                spec.put(kv[0].trim(), kv[1].trim());
            }
            try {
                specs.add(PartitionSpec.parse(schema.partitionType(), spec, defaultName, tableName));
            } catch (IllegalArgumentException e) {
                throw invalid(text, tableName, e.getMessage());
            }
        }
        if (specs.isEmpty()) {
            throw invalid(text, tableName, "it names no partition");
        }
        return new ScanPartitions(text, schema, specs, 0, 0);
    }

    private static IllegalArgumentException invalid(String text, String tableName, String why) {
        return new IllegalArgumentException("Cannot read table " + tableName + " with option 'scan.partitions' = '"
                + text + "': " + why + " (forms: 'k1=v1,k2=v2;k1=v3,k2=v4', and for lookup joins 'max_pt()', "
                + "'max_two_pt()', 'k1=max_pt()')");
    }

    /** Whether the selection depends on the partitions the table has (max_pt() forms). */
    public boolean isDynamic() {
        return fixed.isEmpty();
    }

    /** The option value as given. */
    public String text() {
        return text;
    }

    /** The fixed partitions as a predicate over the table row. */
    public Predicate fixedPredicate() {
        if (isDynamic()) {
            throw new IllegalStateException("scan.partitions '" + text + "' is dynamic");
        }
        List<Predicate> any = new ArrayList<>();
        for (PartitionSpec spec : fixed) {
            any.add(toTableRow(spec.predicate().orElseThrow()));
        }
        return PredicateBuilder.or(any);
    }

    /**
     * The partitions a dynamic selection chooses among {@code partitions} (the values of a table's
     * current ones), or the fixed ones that exist. Empty when the table has none.
     */
    public List<BinaryRow> choose(List<BinaryRow> partitions) {
        List<BinaryRow> rows = new ArrayList<>(partitions);
        if (!isDynamic()) {
            rows.removeIf(row -> fixed.stream().noneMatch(spec -> spec.matches(row)));
            return rows;
        }
        KeyRowComparator order = new KeyRowComparator(partitionType);
        rows.sort(order.reversed());
        if (largest > 0) {
            return new ArrayList<>(rows.subList(0, Math.min(largest, rows.size())));
        }
        List<BinaryRow> chosen = new ArrayList<>(rows);
        for (int level = 0; level < levels && !chosen.isEmpty(); level++) {
            KeyRowComparator field = new KeyRowComparator(partitionType, new int[] {level});
            BinaryRow max = chosen.get(0);
            for (BinaryRow r : chosen) {
                if (field.compare(r, max) > 0) {
                    max = r;
                }
            }
            BinaryRow top = max;
            chosen.removeIf(r -> field.compare(r, top) != 0);
        }
        return chosen;
    }

    /**
     * A predicate over the table row that holds exactly for rows of {@code partitions}; empty when
     * {@code partitions} is empty (nothing is selected).
     */
    public Optional<Predicate> predicateOf(List<BinaryRow> partitions) {
        if (partitions.isEmpty()) {
            return Optional.empty();
        }
        PredicateBuilder builder = new PredicateBuilder(partitionType);
        List<Predicate> any = new ArrayList<>();
        for (BinaryRow row : partitions) {
            List<Predicate> all = new ArrayList<>();
            for (int i = 0; i < partitionType.fieldCount(); i++) {
                all.add(row.isNullAt(i) ? builder.isNull(i)
                        : builder.equal(i, InternalRowUtils.fieldGetter(partitionType.typeAt(i), i).get(row)));
            }
            any.add(toTableRow(PredicateBuilder.and(all)));
        }
        return Optional.of(PredicateBuilder.or(any));
    }

    private Predicate toTableRow(Predicate overPartitionRow) {
        return PredicateBuilder.transformFieldMapping(overPartitionRow, tablePositions).orElseThrow();
    }
}
