package dev.streamhouse.storage.metrics;

/**
 * What one run of the expiration that follows commits did ({@code snapshot.num-retained.*},
 * {@code snapshot.time-retained}, {@code changelog.*}, {@code consumer.expiration-time}).
 *
 * @param endMillis when the run ended (epoch millis)
 * @param durationMillis how long it ran
 * @param snapshots snapshots it expired
 * @param filesDeleted files it deleted with them: data, changelog and manifest files only they used
 * @param changelogs long-lived changelogs it expired
 * @param consumers consumers it removed
 * @param failed whether it failed part-way (the next run finishes the job)
 */
public record ExpirationStats(long endMillis, long durationMillis, int snapshots, int filesDeleted, int changelogs,
        int consumers, boolean failed) {}
