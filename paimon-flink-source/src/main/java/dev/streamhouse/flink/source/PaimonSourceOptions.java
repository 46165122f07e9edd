package dev.streamhouse.flink.source;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Table options of the Flink source, with Paimon's keys and defaults. They are read from the table's
 * options (and SQL hints), e.g. {@code Configuration.fromMap(table.options())}.
 *
 * <p>Options the storage layer also reads are declared there: {@code continuous.discovery-interval}
 * ({@code StreamReadOptions}), {@code scan.mode} and friends ({@code ScanOptions}), {@code consumer-id}
 * ({@code ConsumerOptions}).
 */
public final class PaimonSourceOptions {
    private PaimonSourceOptions() {}

    public static final ConfigOption<Integer> SCAN_PARALLELISM = ConfigOptions.key("scan.parallelism")
            .intType()
            .noDefaultValue()
            .withDescription("Parallelism of the source. Set, it wins over inference; unset, the parallelism "
                    + "is inferred (see 'scan.infer-parallelism') or Flink's default is used.");

    public static final ConfigOption<Boolean> INFER_SCAN_PARALLELISM = ConfigOptions.key("scan.infer-parallelism")
            .booleanType()
            .defaultValue(true)
            .withDescription("Whether to infer the source parallelism: for a bounded read, the number of "
                    + "splits, capped by 'scan.infer-parallelism.max' and by a pushed-down limit.");

    public static final ConfigOption<Integer> INFER_SCAN_MAX_PARALLELISM =
            ConfigOptions.key("scan.infer-parallelism.max")
                    .intType()
                    .defaultValue(1024)
                    .withDescription("Upper bound of an inferred source parallelism.");

    public static final ConfigOption<Integer> SCAN_MAX_SPLITS_PER_TASK = ConfigOptions.key("scan.max-splits-per-task")
            .intType()
            .defaultValue(10)
            .withDescription("Streaming reads: how many unassigned splits the enumerator keeps per source task "
                    + "before it stops looking for new snapshots until readers catch up (back pressure).");
}
