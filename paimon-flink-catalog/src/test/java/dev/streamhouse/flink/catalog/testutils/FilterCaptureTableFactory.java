package dev.streamhouse.flink.catalog.testutils;

import org.apache.flink.api.common.io.GenericInputFormat;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.InputFormatProvider;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.factories.DynamicTableSourceFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Test connector {@code 'connector' = 'filter-capture'}: an empty source that records the filters
 * Flink's planner offers it ({@link #CAPTURED}) and keeps none, so tests see real planner expressions.
 */
public final class FilterCaptureTableFactory implements DynamicTableSourceFactory {
    /** Filters offered by the last planned query. */
    public static final List<ResolvedExpression> CAPTURED = Collections.synchronizedList(new ArrayList<>());

    @Override
    public String factoryIdentifier() {
        return "filter-capture";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Collections.emptySet();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Collections.emptySet();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        return new CaptureSource();
    }

    private static final class CaptureSource implements ScanTableSource, SupportsFilterPushDown {
        @Override
        public Result applyFilters(List<ResolvedExpression> filters) {
            CAPTURED.clear();
            CAPTURED.addAll(filters);
            return Result.of(List.of(), filters);
        }

        @Override
        public ChangelogMode getChangelogMode() {
            return ChangelogMode.insertOnly();
        }

        @Override
        public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
            return InputFormatProvider.of(new EmptyFormat());
        }

        @Override
        public DynamicTableSource copy() {
            return new CaptureSource();
        }

        @Override
        public String asSummaryString() {
            return "filter-capture";
        }
    }

    private static final class EmptyFormat extends GenericInputFormat<RowData> {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean reachedEnd() {
            return true;
        }

        @Override
        public RowData nextRecord(RowData reuse) {
            return null;
        }
    }
}
