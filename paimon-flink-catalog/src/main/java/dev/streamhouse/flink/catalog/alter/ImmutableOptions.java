package dev.streamhouse.flink.catalog.alter;

import java.util.Set;

/**
 * Table options that fix the layout of data already written, so {@code ALTER TABLE SET/RESET} must not
 * change them (Paimon's immutable options). {@code primary-key} and {@code partition} are listed too:
 * keys are changed by recreating the table, never by an option.
 */
final class ImmutableOptions {
    private static final Set<String> KEYS = Set.of(
            "primary-key",
            "partition",
            "bucket-key",
            "bucket-function.type",
            "merge-engine",
            "sequence.field",
            "rowkind.field",
            "ignore-delete",
            "ignore-update-before",
            "force-lookup",
            "data-file.path-directory");

    private ImmutableOptions() {}

    static boolean isImmutable(String key) {
        return KEYS.contains(key) || key.contains("remove-record-on-");
    }
}
