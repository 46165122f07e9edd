package dev.streamhouse.storage.operation;

import java.util.concurrent.ThreadLocalRandom;

/** Exponential backoff with jitter between a minimum and a maximum wait. */
final class RetryBackoff {
    private final long minWaitMillis;
    private final long maxWaitMillis;

    RetryBackoff(long minWaitMillis, long maxWaitMillis) {
        this.minWaitMillis = Math.max(0, minWaitMillis);
        this.maxWaitMillis = Math.max(this.minWaitMillis, maxWaitMillis);
    }

    /** Waits before retry number {@code attempt} (0-based). */
    void pause(int attempt) {
        long base = Math.min(maxWaitMillis, minWaitMillis * (1L << Math.min(attempt, 20)));
        long jitter = base == 0 ? 0 : ThreadLocalRandom.current().nextLong(base / 2 + 1);
        long wait = Math.min(maxWaitMillis, base + jitter);
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CommitConflictException("Cannot retry the commit: interrupted while waiting", e);
        }
    }
}
