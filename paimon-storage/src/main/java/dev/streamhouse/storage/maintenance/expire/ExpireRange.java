package dev.streamhouse.storage.maintenance.expire;

import java.io.IOException;

/**
 * Which snapshots (or long-lived changelogs) one expiration run removes: ids {@code [earliest, end)}.
 * Paimon's rule: keep the newest {@code retainMin} (counted up to the latest snapshot); of the others,
 * expire every one beyond the newest {@code retainMax} and, from the oldest on, those committed before
 * {@code olderThanMillis} (stopping at the first younger one); never reach one a live consumer still
 * reads ({@code >= consumerNext}) or {@code limit}; expire at most {@code maxDeletes}.
 */
record ExpireRange(long earliest, long end) {

    /** The commit time of id {@code id}. */
    @FunctionalInterface
    interface CommitTimes {
        long timeMillis(long id) throws IOException;
    }

    long count() {
        return Math.max(0, end - earliest);
    }

    /**
     * @param latest the latest snapshot id, from which the retained ones are counted
     * @param limit expire nothing at or after this id
     * @param consumerNext the smallest next snapshot of the live consumers, or null
     */
    static ExpireRange of(CommitTimes times, long earliest, long latest, long limit, int retainMin, int retainMax,
            int maxDeletes, long olderThanMillis, Long consumerNext) throws IOException {
        long keepFrom = Math.min(latest - retainMin + 1, limit);
        if (consumerNext != null) {
            keepFrom = Math.min(keepFrom, consumerNext);
        }
        keepFrom = Math.min(keepFrom, earliest + maxDeletes);
        long beyondMax = Math.max(latest - (long) retainMax + 1, earliest);
        if (beyondMax >= keepFrom) {
            return new ExpireRange(earliest, Math.max(earliest, keepFrom));
        }
        for (long id = beyondMax; id < keepFrom; id++) {
            if (times.timeMillis(id) >= olderThanMillis) {
                return new ExpireRange(earliest, id);
            }
        }
        return new ExpireRange(earliest, keepFrom);
    }
}
