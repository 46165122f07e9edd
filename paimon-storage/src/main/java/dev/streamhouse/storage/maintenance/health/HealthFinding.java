package dev.streamhouse.storage.maintenance.health;

import dev.streamhouse.storage.table.sink.CompactionBuckets;

import java.util.Objects;

/**
 * One problem {@link TableHealth} found in a table's metadata.
 *
 * @param severity how urgent it is
 * @param check the check that found it, e.g. {@code level0_files} (the names are listed in
 *     {@link TableHealth})
 * @param scope where: {@code table}, or e.g. {@code partition=dt=2024-01-01, bucket=3, level=0}
 * @param measured the measured value, as text with its unit where it has one (e.g. {@code 7},
 *     {@code 0.33}, {@code 12 snapshots})
 * @param threshold the limit the measured value crossed, derived from the table's options
 * @param description what was measured and why it matters, in one sentence
 * @param recommendation one statement that fixes it, runnable as-is in Flink SQL with the table's
 *     catalog as the current catalog: a {@code CALL sys....} or an {@code ALTER TABLE ... SET (...)}
 * @param bucket the bucket the finding is about, or null for a finding about the table, a partition, a
 *     consumer or a tag
 */
public record HealthFinding(Severity severity, String check, String scope, String measured, String threshold,
        String description, String recommendation, CompactionBuckets.Bucket bucket) {

    public HealthFinding {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(measured, "measured");
        Objects.requireNonNull(threshold, "threshold");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(recommendation, "recommendation");
    }

    /** Whether the recommendation is a compaction ({@code CALL sys.compact}). */
    public boolean isFixedByCompaction() {
        return recommendation.startsWith("CALL sys.compact(");
    }
}
