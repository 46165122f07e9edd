package dev.streamhouse.storage.lookup;

import dev.streamhouse.storage.table.source.DataSplit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/** Runs an action for every split on up to a number of daemon threads, rethrowing the first failure. */
final class ParallelSplits {
    private ParallelSplits() {}

    static void forEach(List<DataSplit> splits, int maxThreads, String what, Consumer<DataSplit> action) {
        int threads = Math.max(1, Math.min(maxThreads, splits.size()));
        if (threads == 1) {
            splits.forEach(action);
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, what);
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> done = new ArrayList<>();
            for (DataSplit split : splits) {
                done.add(pool.submit(() -> action.accept(split)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new IllegalStateException(what + " failed", cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted: " + what, e);
        } finally {
            pool.shutdownNow();
        }
    }
}
