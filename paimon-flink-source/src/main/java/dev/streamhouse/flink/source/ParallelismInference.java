package dev.streamhouse.flink.source;

import dev.streamhouse.storage.options.Options;

import java.util.OptionalInt;

/**
 * The parallelism of a bounded Paimon source, decided as Paimon decides it:
 * <ol>
 *   <li>{@code scan.parallelism}, when set, wins;</li>
 *   <li>else, when {@code scan.infer-parallelism} is on (the default): the number of splits, at most
 *       {@code scan.infer-parallelism.max} (1024), at most the pushed-down limit, and at least 1 (an
 *       empty read still needs one task);</li>
 *   <li>else no opinion: the job's default parallelism applies.</li>
 * </ol>
 * Invalid option values (a parallelism or maximum below 1) are refused with an
 * {@link IllegalArgumentException} naming the option.
 */
public final class ParallelismInference {
    private ParallelismInference() {}

    /**
     * @param options the table's options with hints applied, e.g. {@code table.schema().tableOptions()}
     * @param numSplits the number of splits the read was planned into
     * @param limit the pushed-down limit, or null
     * @return the source parallelism, or empty to leave it to Flink
     */
    public static OptionalInt inferParallelism(Options options, int numSplits, Long limit) {
        if (numSplits < 0) {
            throw new IllegalArgumentException("Cannot infer a source parallelism from " + numSplits + " splits");
        }
        Integer configured = options.get(PaimonSourceOptions.SCAN_PARALLELISM);
        if (configured != null) {
            return OptionalInt.of(atLeastOne(PaimonSourceOptions.SCAN_PARALLELISM.key(), configured));
        }
        if (!options.get(PaimonSourceOptions.INFER_SCAN_PARALLELISM)) {
            return OptionalInt.empty();
        }
        int max = atLeastOne(PaimonSourceOptions.INFER_SCAN_MAX_PARALLELISM.key(),
                options.get(PaimonSourceOptions.INFER_SCAN_MAX_PARALLELISM));
        long parallelism = Math.min(numSplits, max);
        if (limit != null) {
            parallelism = Math.min(parallelism, limit);
        }
        return OptionalInt.of((int) Math.max(1, parallelism));
    }

    private static int atLeastOne(String key, int value) {
        if (value < 1) {
            throw new IllegalArgumentException("Cannot use '" + key + "' = " + value
                    + ": it must be at least 1; fix the table option or the SQL hint");
        }
        return value;
    }
}
