package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.metrics.ExpirationStats;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs snapshot, long-lived changelog and consumer expiration after each successful commit, as Paimon does by default,
 * without ever failing or stalling the commit: the work per run is bounded by
 * {@code snapshot.expire.limit}, and any failure is logged and left to the next run, which finishes
 * the job. With {@code snapshot.expire.execution-mode = async} the run happens on a background thread
 * beside the commit; a commit that finds the previous run still busy skips its own.
 *
 * <p>Not thread-safe (one per committer). {@link #close} waits for a running background expiration.
 */
public final class PostCommitExpiration implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PostCommitExpiration.class);

    private final SnapshotExpiration expiration;
    private final ExpireConfig config;
    private final boolean async;
    private final String tableName;
    private ExecutorService executor;
    private Future<?> running;
    private volatile Consumer<ExpirationStats> listener = stats -> { };

    public PostCommitExpiration(SnapshotExpiration expiration, ExpireConfig config, boolean async, String tableName) {
        this.expiration = expiration;
        this.config = config;
        this.async = async;
        this.tableName = tableName;
    }

    /** Tells {@code listener} what each run did, in the thread that ran it; it must not throw. */
    public void onRun(Consumer<ExpirationStats> listener) {
        this.listener = java.util.Objects.requireNonNull(listener, "listener");
    }

    /** Call after a commit succeeded; never throws. */
    public void afterCommit() {
        if (!async) {
            runOnce();
            return;
        }
        if (running != null && !running.isDone()) {
            return;
        }
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "snapshot-expiration-" + tableName);
                t.setDaemon(true);
                return t;
            });
        }
        running = executor.submit(this::runOnce);
    }

    private void runOnce() {
        long started = System.currentTimeMillis();
        int consumers = 0;
        int snapshots = 0;
        int files = 0;
        int changelogs = 0;
        boolean failed = false;
        try {
            consumers = expiration.expireConsumers(config);
            snapshots = expiration.expire(config);
            files = expiration.lastFilesDeleted();
            changelogs = expiration.expireChangelogs(config);
        } catch (Exception e) {
            failed = true;
            LOG.warn("Snapshot expiration of table {} failed; the commit is not affected and the next commit's "
                    + "expiration finishes the job", tableName, e);
        }
        long ended = System.currentTimeMillis();
        listener.accept(new ExpirationStats(ended, ended - started, snapshots, files, changelogs, consumers,
                failed));
    }

    @Override
    public void close() {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(5, TimeUnit.MINUTES)) {
                LOG.warn("Snapshot expiration of table {} still runs after 5 minutes; leaving it", tableName);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
