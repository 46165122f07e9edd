package dev.streamhouse.flink.datastream;

import dev.streamhouse.flink.source.PaimonSource;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.table.Table;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a table as a DataStream of {@link RowData}: bounded (the snapshot chosen by the scan options,
 * merged) or unbounded (then changes as they are committed, per {@code scan.mode}).
 *
 * <pre>{@code
 * DataStream<RowData> rows = PaimonSourceBuilder.forTable(table)
 *         .projection(List.of("id", "name")).filter(predicate)
 *         .option("scan.snapshot-id", "3")
 *         .build(env);
 * }</pre>
 */
public final class PaimonSourceBuilder {
    private final Table table;
    private final Map<String, String> options = new HashMap<>();
    private List<String> projection;
    private Predicate filter;
    private Long limit;
    private boolean unbounded;
    private WatermarkStrategy<RowData> watermarks = WatermarkStrategy.noWatermarks();

    private PaimonSourceBuilder(Table table) {
        this.table = table;
    }

    public static PaimonSourceBuilder forTable(Table table) {
        return new PaimonSourceBuilder(table);
    }

    /** Read only these columns, in this order. */
    public PaimonSourceBuilder projection(List<String> columns) {
        this.projection = List.copyOf(columns);
        return this;
    }

    /** A predicate over the full table row; it prunes partitions, files and row groups and filters rows. */
    public PaimonSourceBuilder filter(Predicate filter) {
        this.filter = filter;
        return this;
    }

    public PaimonSourceBuilder limit(long limit) {
        this.limit = limit;
        return this;
    }

    /** A table option for this read only, e.g. {@code scan.snapshot-id} or {@code scan.mode}. */
    public PaimonSourceBuilder option(String key, String value) {
        options.put(key, value);
        return this;
    }

    /**
     * Follow the table: start as {@code scan.mode} (or {@code consumer-id}) says, then emit its changes
     * as they are committed, with their row kinds (an upsert stream for primary-key tables without a
     * changelog producer, the full changelog with {@code changelog-producer} = {@code input}).
     */
    public PaimonSourceBuilder unbounded() {
        this.unbounded = true;
        return this;
    }

    public PaimonSourceBuilder watermarks(WatermarkStrategy<RowData> strategy) {
        this.watermarks = strategy;
        return this;
    }

    /** The source itself, e.g. for {@code env.fromSource} with other settings. */
    public PaimonSource buildSource() {
        Table read = options.isEmpty() ? table : table.copy(options);
        PaimonSource.Builder b = PaimonSource.builder(read).filter(filter).limit(limit);
        if (projection != null) {
            int[] positions = new int[projection.size()];
            for (int i = 0; i < positions.length; i++) {
                positions[i] = read.rowType().requireFieldIndex(projection.get(i));
            }
            b.projection(positions);
        }
        if (unbounded) {
            if (limit != null) {
                throw new IllegalArgumentException("Cannot read table " + table.fullName() + " unbounded with a "
                        + "limit: a limit is for bounded reads");
            }
            b.unbounded();
        }
        return b.build();
    }

    public DataStream<RowData> build(StreamExecutionEnvironment env) {
        PaimonSource source = buildSource();
        return env.fromSource(source, watermarks, "paimon: " + table.fullName(), source.getProducedType());
    }
}
