package dev.streamhouse.flink.common.metrics;

import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.HistogramStatistics;

import java.util.Arrays;

/**
 * A histogram of the last {@code window} values (a ring), as Flink's own descriptive-statistics
 * histogram reports them: count of all values ever, statistics of the window. Thread-safe: the
 * operator updates it, the reporter thread reads it.
 */
public final class WindowHistogram implements Histogram {
    /** The window Apache Paimon's duration histograms keep. */
    public static final int DEFAULT_WINDOW = 100;

    private final long[] values;
    private long count;

    public WindowHistogram(int window) {
        this.values = new long[window];
    }

    @Override
    public synchronized void update(long value) {
        values[(int) (count % values.length)] = value;
        count++;
    }

    @Override
    public synchronized long getCount() {
        return count;
    }

    @Override
    public synchronized HistogramStatistics getStatistics() {
        long[] window = Arrays.copyOf(values, (int) Math.min(count, values.length));
        Arrays.sort(window);
        return new Statistics(window);
    }

    private static final class Statistics extends HistogramStatistics {
        private final long[] sorted;

        Statistics(long[] sorted) {
            this.sorted = sorted;
        }

        @Override
        public double getQuantile(double quantile) {
            if (sorted.length == 0) {
                return 0;
            }
            int index = (int) Math.ceil(quantile * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
        }

        @Override
        public long[] getValues() {
            return sorted.clone();
        }

        @Override
        public int size() {
            return sorted.length;
        }

        @Override
        public double getMean() {
            return sorted.length == 0 ? 0 : (double) Arrays.stream(sorted).sum() / sorted.length;
        }

        @Override
        public double getStdDev() {
            if (sorted.length < 2) {
                return 0;
            }
            double mean = getMean();
            double sum = 0;
            for (long v : sorted) {
                sum += (v - mean) * (v - mean);
            }
            return Math.sqrt(sum / (sorted.length - 1));
        }

        @Override
        public long getMax() {
            return sorted.length == 0 ? 0 : sorted[sorted.length - 1];
        }

        @Override
        public long getMin() {
            return sorted.length == 0 ? 0 : sorted[0];
        }
    }
}
