package dev.streamhouse.storage.lifecycle;

import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;

/**
 * Which snapshots one expiration run removes: ids {@code [earliest, end)}. Paimon's rule: keep the
 * newest {@code retainMin}; of the others, expire every one beyond the newest {@code retainMax} and,
 * from the oldest on, those committed before {@code olderThanMillis} (stopping at the first younger
 * one); never reach a snapshot a live consumer still reads ({@code >= consumerNext}); expire at most
 * {@code maxDeletes}.
 */
record ExpireRange(long earliest, long end) {

    long count() {
        return Math.max(0, end - earliest);
    }

    /**
     * @param consumerNext the smallest next snapshot of the live consumers, or null
     */
    static ExpireRange of(SnapshotManager snapshots, long earliest, long latest, ExpireConfig config,
            long olderThanMillis, Long consumerNext) throws IOException {
        long keepFrom = latest - config.retainMin() + 1;
        if (consumerNext != null) {
            keepFrom = Math.min(keepFrom, consumerNext);
        }
        keepFrom = Math.min(keepFrom, earliest + config.maxDeletes());
        long beyondMax = Math.max(latest - (long) config.retainMax() + 1, earliest);
        if (beyondMax >= keepFrom) {
            return new ExpireRange(earliest, Math.max(earliest, keepFrom));
        }
        for (long id = beyondMax; id < keepFrom; id++) {
            if (snapshots.snapshot(id).timeMillis() >= olderThanMillis) {
                return new ExpireRange(earliest, id);
            }
        }
        return new ExpireRange(earliest, keepFrom);
    }
}
