package dev.streamhouse.flink.source.lookup;

import org.apache.flink.table.connector.source.LookupTableSource.LookupRuntimeProvider;
import org.apache.flink.table.connector.source.lookup.AsyncLookupFunctionProvider;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;

import dev.streamhouse.storage.options.Options;

/** The lookup function of a join as the options choose it: sync, or async with {@code lookup.async}. */
public final class LookupFunctions {
    private LookupFunctions() {}

    public static LookupRuntimeProvider provider(LookupJoinSpec spec) {
        Options options = spec.table().schema().tableOptions();
        if (options.get(LookupJoinOptions.LOOKUP_ASYNC)) {
            return AsyncLookupFunctionProvider.of(
                    new PaimonAsyncLookupFunction(spec, options.get(LookupJoinOptions.LOOKUP_ASYNC_THREAD_NUMBER)));
        }
        return LookupFunctionProvider.of(new PaimonLookupFunction(spec));
    }
}
