package dev.streamhouse.bench.rows;

import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/** A bounded scan of {@link BenchRows} through Flink's {@link DataGeneratorSource} (checkpointed, split by row number). */
final class BenchRowsSource implements ScanTableSource {
    private final RowType rowType;
    private final long rows;
    private final long keys;
    private final long rowsPerSecond;

    BenchRowsSource(RowType rowType, long rows, long keys, long rowsPerSecond) {
        this.rowType = rowType;
        this.rows = rows;
        this.keys = keys;
        this.rowsPerSecond = rowsPerSecond;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        RateLimiterStrategy limiter =
                rowsPerSecond > 0 ? RateLimiterStrategy.perSecond(rowsPerSecond) : RateLimiterStrategy.noOp();
        return SourceProvider.of(
                new DataGeneratorSource<>(new BenchRows(keys), rows, limiter, InternalTypeInfo.of(rowType)));
    }

    @Override
    public DynamicTableSource copy() {
        return new BenchRowsSource(rowType, rows, keys, rowsPerSecond);
    }

    @Override
    public String asSummaryString() {
        return "bench-rows(" + rows + " rows, " + keys + " keys)";
    }
}
