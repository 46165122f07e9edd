package dev.streamhouse.flink.source.lookup;

import dev.streamhouse.flink.common.metrics.LookupMetrics;
import dev.streamhouse.flink.common.metrics.TableMetricGroup;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.LookupFunction;

import java.util.Collection;

/**
 * The synchronous lookup of a join against a table: each probe reads the task's
 * {@link DimensionCache}, which is loaded when the task opens (again after every restart: the
 * cache is local, so a restored job loads the table as of its latest snapshot) and follows new
 * snapshots.
 */
public final class PaimonLookupFunction extends LookupFunction {
    private static final long serialVersionUID = 1L;

    private final LookupJoinSpec spec;
    private transient DimensionCache cache;

    public PaimonLookupFunction(LookupJoinSpec spec) {
        this.spec = spec;
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        super.open(context);
        cache = DimensionCache.open(spec, LocalCacheDirectory.create(context, spec.table().fullName()),
                new LookupMetrics(TableMetricGroup.of(context.getMetricGroup(), spec.table().fullName())));
    }

    @Override
    public Collection<RowData> lookup(RowData keyRow) {
        return cache.lookup(cache.keyOf(keyRow));
    }

    @Override
    public void close() throws Exception {
        if (cache != null) {
            cache.close();
            cache = null;
        }
        super.close();
    }
}
