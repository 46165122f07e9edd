package dev.streamhouse.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.Callable;

/**
 * The most heap in use while an action runs, sampled every few milliseconds after a collection before
 * it (a coarse figure: a collection between two samples hides its peak).
 */
final class HeapSampler {
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final int sampleMillis;
    private long base;
    private volatile long peak;

    HeapSampler(int sampleMillis) {
        this.sampleMillis = sampleMillis;
    }

    <T> T during(Callable<T> action) throws Exception {
        System.gc();
        base = memory.getHeapMemoryUsage().getUsed();
        peak = base;
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peak = Math.max(peak, memory.getHeapMemoryUsage().getUsed());
                try {
                    Thread.sleep(sampleMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "bench-heap-sampler");
        sampler.setDaemon(true);
        sampler.start();
        try {
            return action.call();
        } finally {
            sampler.interrupt();
            sampler.join();
        }
    }

    /** The most heap in use above what was in use before the action. */
    double peakAboveBaseMb() {
        return Math.max(0, peak - base) / (1024.0 * 1024.0);
    }

    /** The most heap in use, in all. */
    double peakMb() {
        return peak / (1024.0 * 1024.0);
    }

    /** Heap in use after a full collection now. */
    double afterCollectionMb() {
        System.gc();
        return memory.getHeapMemoryUsage().getUsed() / (1024.0 * 1024.0);
    }
}
