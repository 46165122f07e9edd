package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.flink.source.PaimonSource;
import dev.streamhouse.flink.source.ParallelismInference;
import dev.streamhouse.flink.source.PaimonSourceOptions;
import dev.streamhouse.storage.options.BucketOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.table.Table;


import java.util.OptionalInt;

/**
 * The parallelism of a table's source. Bounded reads: {@link ParallelismInference} over the planned
 * splits. Unbounded reads: {@code scan.parallelism} when set; else, with {@code scan.infer-parallelism}
 * on and a fixed number of buckets, that number (capped by {@code scan.infer-parallelism.max}), since
 * each bucket's changes go to one reader; else Flink's default.
 */
final class SourceParallelism {
    private SourceParallelism() {}

    /** @return the parallelism, or null to leave it to Flink */
    static Integer of(Table table, PaimonSource source, Long limit) {
        Options options = table.schema().tableOptions();
        OptionalInt parallelism;
        if (source.isUnbounded()) {
            int buckets = table.schema().tableOptions().get(BucketOptions.BUCKET);
            if (options.get(PaimonSourceOptions.SCAN_PARALLELISM) == null
                    && options.get(PaimonSourceOptions.INFER_SCAN_PARALLELISM) && buckets < 1) {
                return null;
            }
            parallelism = ParallelismInference.inferParallelism(options, Math.max(buckets, 1), null);
        } else {
            parallelism = ParallelismInference.inferParallelism(options, source.plan().splits().size(), limit);
        }
        return parallelism.isPresent() ? parallelism.getAsInt() : null;
    }
}
