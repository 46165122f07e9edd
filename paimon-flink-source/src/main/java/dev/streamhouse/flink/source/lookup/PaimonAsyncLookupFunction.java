package dev.streamhouse.flink.source.lookup;

import dev.streamhouse.flink.common.metrics.LookupMetrics;
import dev.streamhouse.flink.common.metrics.TableMetricGroup;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.AsyncLookupFunction;
import org.apache.flink.table.functions.FunctionContext;

import java.util.Collection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The asynchronous lookup of a join against a table ({@code lookup.async} = true): probes read the
 * task's {@link DimensionCache} in {@code lookup.async-thread-number} threads. The key is encoded in
 * the caller's thread, as Flink may reuse the key row once this method returns.
 */
public final class PaimonAsyncLookupFunction extends AsyncLookupFunction {
    private static final long serialVersionUID = 1L;

    private final LookupJoinSpec spec;
    private final int threads;
    private transient DimensionCache cache;
    private transient ExecutorService pool;

    public PaimonAsyncLookupFunction(LookupJoinSpec spec, int threads) {
        this.spec = spec;
        this.threads = threads;
    }

    @Override
    public void open(FunctionContext context) throws Exception {
        super.open(context);
        cache = DimensionCache.open(spec, LocalCacheDirectory.create(context, spec.table().fullName()),
                new LookupMetrics(TableMetricGroup.of(context.getMetricGroup(), spec.table().fullName())));
        AtomicInteger n = new AtomicInteger();
        pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "lookup-" + spec.table().fullName() + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public CompletableFuture<Collection<RowData>> asyncLookup(RowData keyRow) {
        byte[] key = cache.keyOf(keyRow);
        return CompletableFuture.supplyAsync(() -> cache.lookup(key), pool);
    }

    @Override
    public void close() throws Exception {
        if (pool != null) {
            pool.shutdownNow();
            pool = null;
        }
        if (cache != null) {
            cache.close();
            cache = null;
        }
        super.close();
    }
}
