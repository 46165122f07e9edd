package dev.streamhouse.flink.source;

import dev.streamhouse.storage.options.ConsumerOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.options.StreamReadOptions;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.source.aggregate.LocalAggregate;
import dev.streamhouse.storage.types.RowType;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The one way to read a table as a DataStream of {@link RowData}, bounded (the snapshot chosen by the
 * scan options, merged) or unbounded (then changes as they are committed, per {@code scan.mode});
 * Flink SQL's table source builds its {@link PaimonSource} here too.
 *
 * <pre>{@code
 * DataStream<RowData> rows = PaimonSourceBuilder.forTable(table)
 *         .projection(List.of("id", "name")).filter(predicate)
 *         .option("scan.snapshot-id", "3")
 *         .build(env);
 * PaimonSource source = PaimonSourceBuilder.forTable(table).unbounded().build();   // for env.fromSource
 * }</pre>
 */
public final class PaimonSourceBuilder {
    private final Table table;
    private final Map<String, String> options = new HashMap<>();
    private int[] projection;
    private List<String> projectedNames;
    private Predicate filter;
    private Long limit;
    private List<LocalAggregate> aggregates;
    private Long snapshotId;
    private boolean unbounded;
    private WatermarkStrategy<RowData> watermarks = WatermarkStrategy.noWatermarks();

    private PaimonSourceBuilder(Table table) {
        this.table = Objects.requireNonNull(table, "table");
    }

    /** A builder reading all columns of {@code table}'s latest snapshot, unfiltered and unlimited. */
    public static PaimonSourceBuilder forTable(Table table) {
        return new PaimonSourceBuilder(table);
    }

    /** Read only these columns, in this order. */
    public PaimonSourceBuilder projection(List<String> columns) {
        this.projectedNames = List.copyOf(columns);
        this.projection = null;
        return this;
    }

    /** Read only these table columns (positions in the table's row type), in this order; null for all. */
    public PaimonSourceBuilder projection(int[] positions) {
        this.projection = positions == null ? null : positions.clone();
        this.projectedNames = null;
        return this;
    }

    /**
     * Read only rows satisfying this predicate over the full table row; null for all rows. It prunes
     * partitions, files and row groups and filters rows.
     */
    public PaimonSourceBuilder filter(Predicate filter) {
        this.filter = filter;
        return this;
    }

    /** Stop each reader after this many rows; null for no limit. Bounded reads only. */
    public PaimonSourceBuilder limit(Long limit) {
        this.limit = limit;
        return this;
    }

    /** A table option for this read only, e.g. {@code scan.snapshot-id} or {@code scan.mode}. */
    public PaimonSourceBuilder option(String key, String value) {
        options.put(key, value);
        return this;
    }

    /**
     * Bounded: read this snapshot instead of the one latest when the job starts (time travel).
     * Unbounded: the snapshot where {@code scan.mode} {@code from-snapshot(-full)} starts.
     */
    public PaimonSourceBuilder snapshotId(long snapshotId) {
        this.snapshotId = snapshotId;
        return this;
    }

    /**
     * Follow the table: start as the table options say ({@code scan.mode}, {@code consumer-id}, ...)
     * and follow new snapshots until the job is cancelled, emitting their changes with row kinds (an
     * upsert stream for primary-key tables without a changelog producer, the full changelog with
     * {@code changelog-producer} = {@code input} or {@code lookup}). Options: {@code continuous.discovery-interval}
     * (default 10 s), {@code scan.max-splits-per-task} (default 10), {@code consumer-id}. Use with
     * checkpointing for exactly-once and for consumer progress.
     */
    public PaimonSourceBuilder unbounded() {
        this.unbounded = true;
        return this;
    }

    /** Read one snapshot and finish (the default). */
    public PaimonSourceBuilder bounded() {
        this.unbounded = false;
        return this;
    }

    /** Watermarks of the stream {@link #build(StreamExecutionEnvironment)} returns; default none. */
    public PaimonSourceBuilder watermarks(WatermarkStrategy<RowData> strategy) {
        this.watermarks = Objects.requireNonNull(strategy, "strategy");
        return this;
    }

    /**
     * Emit, per split, one row of these aggregates of its rows (positions in the projected row) instead
     * of the rows: the local phase of an aggregation whose final phase follows the source. Bounded
     * reads without a limit only.
     */
    public PaimonSourceBuilder aggregates(List<LocalAggregate> aggregates) {
        this.aggregates = List.copyOf(aggregates);
        return this;
    }

    /** The rows of the {@link #build() source}, added to {@code env}. */
    public DataStream<RowData> build(StreamExecutionEnvironment env) {
        PaimonSource source = build();
        return env.fromSource(source, watermarks, "paimon: " + table.fullName(), source.getProducedType());
    }

    /**
     * The source itself, e.g. for {@code env.fromSource} with other settings.
     *
     * @throws IllegalArgumentException for an unknown column name, a column position out of range or
     *     repeated, an unbounded read with a limit, a filter on a
     *     column the table does not have, a negative limit or snapshot id; for an unbounded read also
     *     for a non-positive {@code continuous.discovery-interval} or {@code scan.max-splits-per-task},
     *     an invalid {@code consumer-id}, or the batch-only option {@code incremental-between}
     * @throws org.apache.flink.table.api.ValidationException when a projected column has no Flink type
     *     (VARIANT), naming the column
     */
    public PaimonSource build() {
        Table read = options.isEmpty() ? table : table.copy(options);
        if (unbounded && limit != null) {
            throw new IllegalArgumentException("Cannot read table " + table.fullName() + " unbounded with a "
                    + "limit: a limit is for bounded reads");
        }
        int[] projection = this.projection;
        if (projectedNames != null) {
            projection = new int[projectedNames.size()];
            for (int i = 0; i < projection.length; i++) {
                projection[i] = read.rowType().fieldIndex(projectedNames.get(i));
                if (projection[i] < 0) {
                    throw new IllegalArgumentException("Cannot read column '" + projectedNames.get(i) + "' of table "
                            + read.fullName() + ": it has columns " + read.rowType().fieldNames());
                }
            }
        }
        int columns = read.rowType().fieldCount();
        int[] positions = projection;
        if (positions == null) {
            positions = new int[columns];
            for (int i = 0; i < columns; i++) {
                positions[i] = i;
            }
        }
        boolean[] seen = new boolean[columns];
        for (int p : positions) {
            if (p < 0 || p >= columns) {
                throw new IllegalArgumentException("Cannot read column " + p + " of table " + read.fullName()
                        + ": it has columns 0 to " + (columns - 1));
            }
            if (seen[p]) {
                throw new IllegalArgumentException("Cannot read column " + p + " of table " + read.fullName()
                        + " twice in one projection");
            }
            seen[p] = true;
        }
        if (filter != null) {
            for (int field : PredicateBuilder.referencedFields(filter)) {
                if (field >= columns) {
                    throw new IllegalArgumentException("Cannot filter on column " + field + " of table "
                            + read.fullName() + ": it has columns 0 to " + (columns - 1));
                }
            }
        }
        if (limit != null && limit < 0) {
            throw new IllegalArgumentException("Cannot limit a read of table " + read.fullName() + " to "
                    + limit + " rows: the limit is negative");
        }
        if (snapshotId != null && snapshotId < 1) {
            throw new IllegalArgumentException("Cannot read snapshot " + snapshotId + " of table "
                    + read.fullName() + ": snapshot ids start at 1");
        }
        if (unbounded) {
            validateStreamingOptions(read);
        }
        if (aggregates != null) {
            if (unbounded || limit != null) {
                throw new IllegalArgumentException("Cannot aggregate a read of table " + read.fullName()
                        + (unbounded ? " that is unbounded" : " with a limit") + ": aggregates are computed over whole splits"
                        + " of bounded reads");
            }
            RowType readType = read.rowType().project(positions);
            for (LocalAggregate a : aggregates) {
                if (a.field() >= readType.fieldCount()
                        || (a.field() >= 0 && !LocalAggregate.supports(a.kind(), readType.typeAt(a.field())))) {
                    throw new IllegalArgumentException("Cannot compute " + a + " in a read of table " + read.fullName()
                            + " with columns " + readType.fieldNames());
                }
            }
        }
        PaimonSource source = new PaimonSource(read, positions, filter, limit, snapshotId, unbounded, aggregates);
        source.producedType(); // fails early for columns Flink cannot represent
        return source;
    }

    private static void validateStreamingOptions(Table read) {
        Options options = read.schema().tableOptions();
        String name = read.fullName();
        if (options.get(ScanOptions.SCAN_MODE) == ScanOptions.StartupMode.INCREMENTAL) {
            throw new IllegalArgumentException("Cannot stream-read table " + name + " with option '"
                    + ScanOptions.SCAN_MODE.key() + "' = '" + ScanOptions.StartupMode.INCREMENTAL + "': incremental "
                    + "reads are batch reads (Apache Paimon 1.3 refuses them in streaming mode too); read bounded, "
                    + "or choose another scan mode");
        }
        for (var incremental : List.of(ScanOptions.INCREMENTAL_BETWEEN, ScanOptions.INCREMENTAL_BETWEEN_TIMESTAMP,
                ScanOptions.INCREMENTAL_TO_AUTO_TAG)) {
            if (options.get(incremental) != null) {
                throw new IllegalArgumentException("Cannot stream-read table " + name + " with option '"
                        + incremental.key() + "': it is for batch reads; remove it or read bounded");
            }
        }
        Duration interval = options.get(StreamReadOptions.CONTINUOUS_DISCOVERY_INTERVAL);
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("Cannot stream-read table " + name + ": option '"
                    + StreamReadOptions.CONTINUOUS_DISCOVERY_INTERVAL.key() + "' must be positive, got " + interval);
        }
        int perTask = read.schema().tableOptions().get(PaimonSourceOptions.SCAN_MAX_SPLITS_PER_TASK);
        if (perTask < 1) {
            throw new IllegalArgumentException("Cannot stream-read table " + name + ": option '"
                    + PaimonSourceOptions.SCAN_MAX_SPLITS_PER_TASK.key() + "' must be at least 1, got " + perTask);
        }
        String consumerId = options.get(ConsumerOptions.CONSUMER_ID);
        if (consumerId != null) {
            ConsumerOptions.CONSUMER_ID.parseAndCheck(consumerId); // names the option
        }
    }
}
